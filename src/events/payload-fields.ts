/** The payload keys and value checks of event schema 2 (docs/events.md "Events schema 2"). */
import { ADDITION_FAULT_TYPES } from "../scenario/additions.js";
import { FAULT_TYPES } from "../scenario/types.js";
import type { AdditionEventType, AdditionFailureKind, AdditionNotAppliedReason } from "./addition-types.js";
import {
  boolean,
  type FieldCheck,
  integer,
  integerOrNull,
  integerRecord,
  nonNegativeInteger,
  nonNegativeIntegerOrNull,
  oneOf,
  positiveInteger,
  positiveIntegerOrNull,
  string,
  stringOrNull,
} from "./field-checks.js";
import { LEGACY_FAILURE_KINDS, LEGACY_PAYLOAD_FIELDS } from "./legacy/payload-fields.js";
import type { EventType, FailureKind, NotAppliedReason } from "./types.js";

export const FAILURE_KINDS = [
  ...LEGACY_FAILURE_KINDS,
  ...Object.keys({
    injected_llm_error: true,
    injected_stream_truncated: true,
    injected_stream_reset: true,
    injected_stream_error_event: true,
    injected_response_lost: true,
    tool_error: true,
    rpc_error: true,
    client_cancelled: true,
    connection_closed: true,
    injected_rpc_error: true,
    injected_tool_error: true,
    injected_no_response: true,
  } satisfies Record<
    Exclude<FailureKind, (typeof LEGACY_FAILURE_KINDS)[number] | AdditionFailureKind>,
    true
  >),
];

export const NOT_APPLIED_REASONS = Object.keys({
  upstream_status: true,
  not_a_stream: true,
  ended_before_cut: true,
  upstream_failed: true,
  another_fault_acted: true,
} satisfies Record<Exclude<NotAppliedReason, AdditionNotAppliedReason>, true>) as NotAppliedReason[];

const protocol = oneOf(["http", "mcp"]);

/**
 * The payload keys of every schema-2 event type after `kind`, in documented order, with the check
 * each value must pass. Types whose payload is unchanged reuse the schema-1 entry.
 */
export const PAYLOAD_FIELDS = {
  RUN_STARTED: LEGACY_PAYLOAD_FIELDS.RUN_STARTED,
  DEPENDENCY_STARTED: { dependency: string, base_url: string, pid: integer },
  DEPENDENCY_READY: { dependency: string, base_url: string, readiness_path: string },
  INJECTOR_STARTED: { dependency: string, proxy_url: stringOrNull, upstream_url: stringOrNull },
  SESSION_STARTED: { dependency: string, session: positiveInteger, pid: integer },
  SESSION_ENDED: { dependency: string, session: positiveInteger, exit_code: integerOrNull },
  WORKLOAD_STARTED: LEGACY_PAYLOAD_FIELDS.WORKLOAD_STARTED,
  OPERATION_OBSERVED: {
    operation_id: string,
    dependency: string,
    protocol,
    method: string,
    path: string,
    query_hash: stringOrNull,
    body_hash: string,
    fingerprint: string,
    session: positiveIntegerOrNull,
    idempotency_key_hash: stringOrNull,
  },
  FAULT_INJECTED: {
    operation_id: string,
    fault_id: string,
    // The additions' fault types exist only in schema 3.
    fault_type: oneOf(FAULT_TYPES.filter((type) => !ADDITION_FAULT_TYPES.includes(type))),
    parameters: integerRecord,
  },
  FAULT_NOT_APPLIED: { operation_id: string, fault_id: string, reason: oneOf(NOT_APPLIED_REASONS) },
  RETRY_OBSERVED: LEGACY_PAYLOAD_FIELDS.RETRY_OBSERVED,
  OPERATION_FAILED: {
    operation_id: string,
    fingerprint: string,
    failure_kind: oneOf(FAILURE_KINDS),
    status_code: integerOrNull,
    fault_related: boolean,
    retry_after_ms: nonNegativeIntegerOrNull,
    upstream_status: integerOrNull,
    rpc_error_code: integerOrNull,
    relayed_events: nonNegativeIntegerOrNull,
  },
  OPERATION_SUCCEEDED: {
    operation_id: string,
    fingerprint: string,
    status_code: integerOrNull,
    duration_ms: nonNegativeInteger,
    fault_related: boolean,
    relayed_events: nonNegativeIntegerOrNull,
    closed_by_client: boolean,
  },
  WORKLOAD_COMPLETED: LEGACY_PAYLOAD_FIELDS.WORKLOAD_COMPLETED,
  DEPENDENCY_STOPPED: { dependency: string, exit_code: integerOrNull },
  RUN_ERROR: LEGACY_PAYLOAD_FIELDS.RUN_ERROR,
  RUN_COMPLETED: LEGACY_PAYLOAD_FIELDS.RUN_COMPLETED,
} as const satisfies Record<Exclude<EventType, AdditionEventType>, Record<string, FieldCheck>>;
