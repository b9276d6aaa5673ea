/**
 * Event schema 1 (docs/events.md). Payload keys are declared in their documented order;
 * builders must create payload objects with `kind` first and the other keys in this order.
 */

export type Component = "orchestrator" | "dependency" | "injector" | "workload" | "proxy";

export type FailureKind =
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
export interface DependencyStartedPayload {
  kind: "DEPENDENCY_STARTED";
  base_url: string;
  pid: number;
}
export interface DependencyReadyPayload {
  kind: "DEPENDENCY_READY";
  base_url: string;
  readiness_path: string;
}
export interface InjectorStartedPayload {
  kind: "INJECTOR_STARTED";
  proxy_url: string;
  upstream_url: string;
}
export interface WorkloadStartedPayload {
  kind: "WORKLOAD_STARTED";
  name: string;
  pid: number;
}
export interface OperationObservedPayload {
  kind: "OPERATION_OBSERVED";
  operation_id: string;
  protocol: "http";
  method: string;
  path: string;
  query_hash: string;
  body_hash: string;
  fingerprint: string;
}
export interface FaultInjectedPayload {
  kind: "FAULT_INJECTED";
  operation_id: string;
  fault_type: string;
  parameters: Record<string, number>;
}
export interface OperationFailedPayload {
  kind: "OPERATION_FAILED";
  operation_id: string;
  fingerprint: string;
  failure_kind: FailureKind;
  status_code: number | null;
  fault_related: boolean;
}
export interface RetryObservedPayload {
  kind: "RETRY_OBSERVED";
  operation_id: string;
  retry_of_operation_id: string;
  fingerprint: string;
  attempt: number;
}
export interface OperationSucceededPayload {
  kind: "OPERATION_SUCCEEDED";
  operation_id: string;
  fingerprint: string;
  status_code: number;
  duration_ms: number;
  fault_related: boolean;
}
export interface WorkloadCompletedPayload {
  kind: "WORKLOAD_COMPLETED";
  exit_code: number | null;
  timed_out: boolean;
  interrupted: boolean;
  duration_ms: number;
  error: string | null;
}
export interface DependencyStoppedPayload {
  kind: "DEPENDENCY_STOPPED";
  exit_code: number | null;
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

export type EventPayload =
  | RunStartedPayload
  | DependencyStartedPayload
  | DependencyReadyPayload
  | InjectorStartedPayload
  | WorkloadStartedPayload
  | OperationObservedPayload
  | FaultInjectedPayload
  | OperationFailedPayload
  | RetryObservedPayload
  | OperationSucceededPayload
  | WorkloadCompletedPayload
  | DependencyStoppedPayload
  | RunErrorPayload
  | RunCompletedPayload;

export type EventType = EventPayload["kind"];

/** The component each event type is emitted by (docs/events.md). */
export const EVENT_COMPONENT = {
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
} as const satisfies Record<EventType, Component>;

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
export type AgentChaosEvent<P extends EventPayload = EventPayload> = EventEnvelope<1, P>;

export type PayloadOf<T extends EventType> = Extract<EventPayload, { kind: T }>;

/** What producers (proxy, orchestrator) depend on: the recorder's one method. */
export interface EventSink {
  /** Assigns sequence and time, records the line (written by the end of the turn), returns the full event. */
  emit<P extends EventPayload>(payload: P): AgentChaosEvent<P>;
}
