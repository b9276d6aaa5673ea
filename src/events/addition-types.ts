/**
 * The event payloads that exist only in events schema 3, written by runs whose scenario uses an
 * addition (docs/events.md "Events schema 3"). Every other event keeps its schema-2 payload, with
 * the few keys schema 3 adds (see addition-fields.ts).
 */

/** A dependency served from its cassette (in place of DEPENDENCY_STARTED and DEPENDENCY_READY). */
export interface ReplayStartedPayload {
  kind: "REPLAY_STARTED";
  dependency: string;
  cassette: string;
  interactions: number;
}

/** The scenario's `verify` command ended (or was stopped at its timeout). */
export interface VerifyCompletedPayload {
  kind: "VERIFY_COMPLETED";
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
}

/** A corruption fault's canary reached a sink; `operation_id` is null for the workload's stdout. */
export interface CanarySeenPayload {
  kind: "CANARY_SEEN";
  fault_id: string;
  sink: string;
  operation_id: string | null;
}

/** The agent sent `notifications/cancelled` naming an operation's JSON-RPC id. */
export interface McpCancelledPayload {
  kind: "MCP_CANCELLED";
  dependency: string;
  session: number | null;
  operation_id: string;
}

export type AdditionEventPayload =
  | ReplayStartedPayload
  | VerifyCompletedPayload
  | CanarySeenPayload
  | McpCancelledPayload;

export type AdditionEventType = AdditionEventPayload["kind"];

/** The JSON type of a corruption fault's canary, the only trace of it in the events. */
export type CanaryType = "string" | "number" | "boolean";

/** Failure kinds only schema 3 writes. */
export type AdditionFailureKind =
  | "replay_mismatch"
  | "injected_malformed"
  | "injected_oversized"
  | "injected_misbehaviour"
  | "injected_auth_expired";

/** FAULT_NOT_APPLIED reasons only schema 3 writes. */
export type AdditionNotAppliedReason = "pointer_not_found" | "not_json" | "not_applicable";
