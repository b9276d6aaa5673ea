/**
 * Event schema 2 (docs/events.md). Envelope as schema 1 with `schema_version: 2`; payload
 * keys are declared in their documented order: builders create payload objects with `kind` first
 * and the other keys in this order.
 */

import type {
  AdditionEventPayload,
  AdditionFailureKind,
  AdditionNotAppliedReason,
  CanaryType,
} from "./addition-types.js";
import type { EventEnvelope, LegacyFailureKind, LegacyRetryObservedPayload } from "./legacy/types.js";
export type FailureKind =
  | LegacyFailureKind
  | "injected_llm_error"
  | "injected_stream_truncated"
  | "injected_stream_reset"
  | "injected_stream_error_event"
  | "injected_response_lost"
  | "tool_error"
  | "rpc_error"
  | "client_cancelled"
  | "connection_closed"
  | "injected_rpc_error"
  | "injected_tool_error"
  | "injected_no_response"
  | AdditionFailureKind;

export type NotAppliedReason =
  | "upstream_status"
  | "not_a_stream"
  | "ended_before_cut"
  | "upstream_failed"
  | "another_fault_acted"
  | AdditionNotAppliedReason;

export interface DependencyStartedPayload {
  kind: "DEPENDENCY_STARTED";
  dependency: string;
  base_url: string;
  pid: number;
}
export interface DependencyReadyPayload {
  kind: "DEPENDENCY_READY";
  dependency: string;
  base_url: string;
  readiness_path: string;
}
export interface InjectorStartedPayload {
  kind: "INJECTOR_STARTED";
  dependency: string;
  proxy_url: string | null;
  upstream_url: string | null;
}
export interface SessionStartedPayload {
  kind: "SESSION_STARTED";
  dependency: string;
  session: number;
  pid: number;
}
export interface SessionEndedPayload {
  kind: "SESSION_ENDED";
  dependency: string;
  session: number;
  exit_code: number | null;
}
export interface OperationObservedPayload {
  kind: "OPERATION_OBSERVED";
  operation_id: string;
  dependency: string;
  protocol: "http" | "mcp";
  method: string;
  path: string;
  query_hash: string | null;
  body_hash: string;
  fingerprint: string;
  session: number | null;
  idempotency_key_hash: string | null;
}
export interface FaultInjectedPayload {
  kind: "FAULT_INJECTED";
  operation_id: string;
  fault_id: string;
  fault_type: string;
  /** Integers, and in schema 3 also the string keys some faults record (such as a shape). */
  parameters: Record<string, number | string>;
  /** Schema 3 only: a corruption fault's JSON pointer (the projection to schema 2 drops it). */
  pointer?: string | null;
  /** Schema 3 only: the JSON type of a corruption fault's canary. */
  canary_type?: CanaryType | null;
}
export interface FaultNotAppliedPayload {
  kind: "FAULT_NOT_APPLIED";
  operation_id: string;
  fault_id: string;
  reason: NotAppliedReason;
}
export type RetryObservedPayload = LegacyRetryObservedPayload;
export interface OperationFailedPayload {
  kind: "OPERATION_FAILED";
  operation_id: string;
  fingerprint: string;
  failure_kind: FailureKind;
  status_code: number | null;
  fault_related: boolean;
  retry_after_ms: number | null;
  upstream_status: number | null;
  rpc_error_code: number | null;
  relayed_events: number | null;
}
export interface OperationSucceededPayload {
  kind: "OPERATION_SUCCEEDED";
  operation_id: string;
  fingerprint: string;
  status_code: number | null;
  duration_ms: number;
  fault_related: boolean;
  relayed_events: number | null;
  closed_by_client: boolean;
}
export interface DependencyStoppedPayload {
  kind: "DEPENDENCY_STOPPED";
  dependency: string;
  exit_code: number | null;
}

export type EventPayload =
  | RunStartedPayload
  | DependencyStartedPayload
  | DependencyReadyPayload
  | InjectorStartedPayload
  | SessionStartedPayload
  | SessionEndedPayload
  | WorkloadStartedPayload
  | OperationObservedPayload
  | FaultInjectedPayload
  | FaultNotAppliedPayload
  | RetryObservedPayload
  | OperationFailedPayload
  | OperationSucceededPayload
  | WorkloadCompletedPayload
  | DependencyStoppedPayload
  | RunErrorPayload
  | RunCompletedPayload
  | AdditionEventPayload;

export type EventType = EventPayload["kind"];

/** The component each schema-2 event type is emitted by (the shim's events are `proxy`). */
export const EVENT_COMPONENT = {
  RUN_STARTED: "orchestrator",
  DEPENDENCY_STARTED: "dependency",
  DEPENDENCY_READY: "dependency",
  INJECTOR_STARTED: "injector",
  SESSION_STARTED: "proxy",
  SESSION_ENDED: "proxy",
  WORKLOAD_STARTED: "workload",
  OPERATION_OBSERVED: "proxy",
  FAULT_INJECTED: "proxy",
  FAULT_NOT_APPLIED: "proxy",
  RETRY_OBSERVED: "proxy",
  OPERATION_FAILED: "proxy",
  OPERATION_SUCCEEDED: "proxy",
  WORKLOAD_COMPLETED: "workload",
  DEPENDENCY_STOPPED: "dependency",
  RUN_ERROR: "orchestrator",
  RUN_COMPLETED: "orchestrator",
  REPLAY_STARTED: "dependency",
  VERIFY_COMPLETED: "workload",
  CANARY_SEEN: "proxy",
  MCP_CANCELLED: "proxy",
  TOKENS_COUNTED: "proxy",
} as const satisfies Record<EventType, Component>;

/**
 * One line of a schema-2 events.jsonl; `schema_version` is 3 in a run whose scenario uses an
 * addition (docs/events.md "Versions").
 */
export type AgentChaosEvent<P extends EventPayload = EventPayload> = EventEnvelope<2 | 3, P>;

export type PayloadOf<T extends EventType> = Extract<EventPayload, { kind: T }>;

/** What schema-2 producers (proxies, shim channel, orchestrator) depend on. */
export interface EventSink {
  emit<P extends EventPayload>(payload: P): AgentChaosEvent<P>;
}

/** An event of either schema (one run's file holds one schema). */
export type AnyAgentChaosEvent = import("./legacy/types.js").LegacyEvent | AgentChaosEvent;
export type Component = "orchestrator" | "dependency" | "injector" | "workload" | "proxy";
export type RunResult = "PASSED" | "RECOVERED" | "FAILED";
export type RunErrorReason =
  | "DEPENDENCY_START_FAILED"
  | "PROXY_START_FAILED"
  | "WORKLOAD_SPAWN_FAILED"
  | "INTERNAL_ERROR"
  /** Schema 2 with replay: a request the cassette never recorded (docs/replay.md). */
  | "REPLAY_MISMATCH";
export interface RunStartedPayload {
  kind: "RUN_STARTED";
  scenario_name: string;
}
export interface WorkloadStartedPayload {
  kind: "WORKLOAD_STARTED";
  name: string;
  pid: number;
}
export interface WorkloadCompletedPayload {
  kind: "WORKLOAD_COMPLETED";
  exit_code: number | null;
  timed_out: boolean;
  interrupted: boolean;
  duration_ms: number;
  error: string | null;
}
export interface RunErrorPayload {
  kind: "RUN_ERROR";
  reason_code: RunErrorReason;
  message: string;
}
export interface RunCompletedPayload {
  kind: "RUN_COMPLETED";
  result: RunResult;
  reason_code: string;
  duration_ms: number;
}
