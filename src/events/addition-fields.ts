/**
 * The payload keys and value checks of events schema 3 (docs/events.md "Events schema 3"):
 * schema 2's, plus the events and keys the additions bring. Keys in documented order.
 */
import { ADDITION_FAULT_TYPES } from "../scenario/additions.js";
import { FAULT_TYPES } from "../scenario/types.js";
import type { AdditionFailureKind, AdditionNotAppliedReason, CanaryType } from "./addition-types.js";
import {
  boolean,
  type FieldCheck,
  integerOrNull,
  isPlainObject,
  nonNegativeInteger,
  oneOf,
  positiveIntegerOrNull,
  string,
  stringOrNull,
} from "./field-checks.js";
import { RUN_ERROR_REASONS_WITH_REPLAY } from "./legacy/payload-fields.js";
import { FAILURE_KINDS, NOT_APPLIED_REASONS, PAYLOAD_FIELDS } from "./payload-fields.js";
import type { EventType } from "./types.js";

const ADDITION_FAILURE_KINDS = Object.keys({
  replay_mismatch: true,
  injected_malformed: true,
  injected_oversized: true,
  injected_misbehaviour: true,
  injected_auth_expired: true,
} satisfies Record<AdditionFailureKind, true>);

const ADDITION_NOT_APPLIED_REASONS = Object.keys({
  pointer_not_found: true,
  not_json: true,
  not_applicable: true,
} satisfies Record<AdditionNotAppliedReason, true>);

const CANARY_TYPES = Object.keys({ string: true, number: true, boolean: true } satisfies Record<
  CanaryType,
  true
>);

/** `null` or one of the canary types. */
const canaryTypeOrNull: FieldCheck = {
  test: (v) => v === null || (typeof v === "string" && CANARY_TYPES.includes(v)),
  expected: `null or one of ${CANARY_TYPES.join(", ")}`,
};

/** Fault parameters: integers, or strings for the keys a fault records as words (a shape). */
const parameterRecord: FieldCheck = {
  test: (v) =>
    isPlainObject(v) &&
    Object.values(v).every((value) => typeof value === "string" || Number.isSafeInteger(value)),
  expected: "an object of integers and strings",
};

export const PAYLOAD_FIELDS_ADDITIONS = {
  ...PAYLOAD_FIELDS,
  FAULT_INJECTED: {
    operation_id: string,
    fault_id: string,
    fault_type: oneOf([...FAULT_TYPES, ...ADDITION_FAULT_TYPES]),
    parameters: parameterRecord,
    pointer: stringOrNull,
    canary_type: canaryTypeOrNull,
  },
  FAULT_NOT_APPLIED: {
    ...PAYLOAD_FIELDS.FAULT_NOT_APPLIED,
    reason: oneOf([...NOT_APPLIED_REASONS, ...ADDITION_NOT_APPLIED_REASONS]),
  },
  OPERATION_FAILED: {
    ...PAYLOAD_FIELDS.OPERATION_FAILED,
    failure_kind: oneOf([...FAILURE_KINDS, ...ADDITION_FAILURE_KINDS]),
  },
  RUN_ERROR: { reason_code: oneOf(RUN_ERROR_REASONS_WITH_REPLAY), message: string },
  REPLAY_STARTED: { dependency: string, cassette: string, interactions: nonNegativeInteger },
  VERIFY_COMPLETED: { exit_code: integerOrNull, timed_out: boolean, duration_ms: nonNegativeInteger },
  CANARY_SEEN: { fault_id: string, sink: string, operation_id: stringOrNull },
  MCP_CANCELLED: { dependency: string, session: positiveIntegerOrNull, operation_id: string },
  TOKENS_COUNTED: { fault_id: string, operation_id: string, tokens: nonNegativeInteger },
} as const satisfies Record<EventType, Record<string, FieldCheck>>;
