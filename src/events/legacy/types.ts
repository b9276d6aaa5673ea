/**
 * Event schema 1 (docs/events.md): each payload is the internal (schema-2) one without the keys
 * schema 1 does not record; the documented key order is the one of legacy/payload-fields.ts.
 */

import {
  type Component,
  type DependencyReadyPayload,
  type DependencyStartedPayload,
  type DependencyStoppedPayload,
  EVENT_COMPONENT,
  type FaultInjectedPayload,
  type InjectorStartedPayload,
  type OperationFailedPayload,
  type OperationObservedPayload,
  type OperationSucceededPayload,
  type RunCompletedPayload,
  type RunErrorPayload,
  type RunStartedPayload,
  type WorkloadCompletedPayload,
  type WorkloadStartedPayload,
} from "../types.js";
import { type LEGACY_FAILURE_KINDS, LEGACY_PAYLOAD_FIELDS } from "./payload-fields.js";
export type LegacyFailureKind = (typeof LEGACY_FAILURE_KINDS)[number];

/** Schema 1 names no dependency: its one dependency is implied. */
type Unnamed<P> = Omit<P, "dependency">;

export type LegacyDependencyStartedPayload = Unnamed<DependencyStartedPayload>;
export type LegacyDependencyReadyPayload = Unnamed<DependencyReadyPayload>;
export interface LegacyInjectorStartedPayload extends Unnamed<InjectorStartedPayload> {
  proxy_url: string;
  upstream_url: string;
}
export interface LegacyOperationObservedPayload
  extends Omit<OperationObservedPayload, "dependency" | "session" | "idempotency_key_hash"> {
  protocol: "http";
  query_hash: string;
}
export interface LegacyFaultInjectedPayload
  extends Omit<FaultInjectedPayload, "fault_id" | "pointer" | "canary_type"> {
  parameters: Record<string, number>;
}
export interface LegacyOperationFailedPayload
  extends Omit<
    OperationFailedPayload,
    "retry_after_ms" | "upstream_status" | "rpc_error_code" | "relayed_events"
  > {
  failure_kind: LegacyFailureKind;
}
export interface LegacyRetryObservedPayload {
  kind: "RETRY_OBSERVED";
  operation_id: string;
  retry_of_operation_id: string;
  fingerprint: string;
  attempt: number;
}
export interface LegacyOperationSucceededPayload
  extends Omit<OperationSucceededPayload, "relayed_events" | "closed_by_client"> {
  status_code: number;
}
export type LegacyDependencyStoppedPayload = Unnamed<DependencyStoppedPayload>;
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

/** The component each schema-1 event type is emitted by: the internal model's, in schema-1 order. */
export const LEGACY_EVENT_COMPONENT = Object.fromEntries(
  Object.keys(LEGACY_PAYLOAD_FIELDS).map((type) => [type, EVENT_COMPONENT[type as LegacyEventType]]),
) as Readonly<Record<LegacyEventType, Component>>;

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
