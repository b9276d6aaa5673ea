/**
 * Event schema 1 (docs/events.md). Payload keys are declared in their documented order;
 * builders must create payload objects with `kind` first and the other keys in this order.
 */

import type {
  Component,
  RunCompletedPayload,
  RunErrorPayload,
  RunStartedPayload,
  WorkloadCompletedPayload,
  WorkloadStartedPayload,
} from "../types.js";
export type LegacyFailureKind =
  | "injected_http_error"
  | "injected_rate_limit"
  | "injected_malformed_json"
  | "injected_disconnect"
  | "client_disconnected"
  | "client_timeout_inferred"
  | "upstream_http_error"
  | "proxy_error"
  | "request_body_too_large"
  | "upstream_stream_interrupted";

export interface LegacyDependencyStartedPayload {
  kind: "DEPENDENCY_STARTED";
  base_url: string;
  pid: number;
}
export interface LegacyDependencyReadyPayload {
  kind: "DEPENDENCY_READY";
  base_url: string;
  readiness_path: string;
}
export interface LegacyInjectorStartedPayload {
  kind: "INJECTOR_STARTED";
  proxy_url: string;
  upstream_url: string;
}
export interface LegacyOperationObservedPayload {
  kind: "OPERATION_OBSERVED";
  operation_id: string;
  protocol: "http";
  method: string;
  path: string;
  query_hash: string;
  body_hash: string;
  fingerprint: string;
}
export interface LegacyFaultInjectedPayload {
  kind: "FAULT_INJECTED";
  operation_id: string;
  fault_type: string;
  parameters: Record<string, number>;
}
export interface LegacyOperationFailedPayload {
  kind: "OPERATION_FAILED";
  operation_id: string;
  fingerprint: string;
  failure_kind: LegacyFailureKind;
  status_code: number | null;
  fault_related: boolean;
}
export interface LegacyRetryObservedPayload {
  kind: "RETRY_OBSERVED";
  operation_id: string;
  retry_of_operation_id: string;
  fingerprint: string;
  attempt: number;
}
export interface LegacyOperationSucceededPayload {
  kind: "OPERATION_SUCCEEDED";
  operation_id: string;
  fingerprint: string;
  status_code: number;
  duration_ms: number;
  fault_related: boolean;
}
export interface LegacyDependencyStoppedPayload {
  kind: "DEPENDENCY_STOPPED";
  exit_code: number | null;
}
export type LegacyEventPayload =
  | RunStartedPayload
  | LegacyDependencyStartedPayload
  | LegacyDependencyReadyPayload
  | LegacyInjectorStartedPayload
  | WorkloadStartedPayload
  | LegacyOperationObservedPayload
  | LegacyFaultInjectedPayload
  | LegacyOperationFailedPayload
  | LegacyRetryObservedPayload
  | LegacyOperationSucceededPayload
  | WorkloadCompletedPayload
  | LegacyDependencyStoppedPayload
  | RunErrorPayload
  | RunCompletedPayload;

export type LegacyEventType = LegacyEventPayload["kind"];

/** The component each event type is emitted by (docs/events.md). */
export const LEGACY_EVENT_COMPONENT = {
  RUN_STARTED: "orchestrator",
  DEPENDENCY_STARTED: "dependency",
  DEPENDENCY_READY: "dependency",
  INJECTOR_STARTED: "injector",
  WORKLOAD_STARTED: "workload",
  OPERATION_OBSERVED: "proxy",
  FAULT_INJECTED: "proxy",
  OPERATION_FAILED: "proxy",
  RETRY_OBSERVED: "proxy",
  OPERATION_SUCCEEDED: "proxy",
  WORKLOAD_COMPLETED: "workload",
  DEPENDENCY_STOPPED: "dependency",
  RUN_ERROR: "orchestrator",
  RUN_COMPLETED: "orchestrator",
} as const satisfies Record<LegacyEventType, Component>;

/** One line of events.jsonl of schema `V`, envelope keys in documented order. */
export interface EventEnvelope<V extends number, P extends { readonly kind: string }> {
  schema_version: V;
  event_id: string;
  run_id: string;
  sequence: number;
  timestamp: string;
  elapsed_ms: number;
  type: P["kind"];
  component: Component;
  payload: P;
}

/** One line of a schema-1 events.jsonl. */
export type LegacyEvent<P extends LegacyEventPayload = LegacyEventPayload> = EventEnvelope<1, P>;

export type LegacyPayloadOf<T extends LegacyEventType> = Extract<LegacyEventPayload, { kind: T }>;

/** What producers (proxy, orchestrator) depend on: the recorder's one method. */
export interface LegacyEventSink {
  /** Assigns sequence and time, records the line (written by the end of the turn), returns the full event. */
  emit<P extends LegacyEventPayload>(payload: P): LegacyEvent<P>;
}
