import {
  boolean,
  type FieldCheck,
  integer,
  integerOrNull,
  integerRecord,
  nonNegativeInteger,
  oneOf,
  positiveInteger,
  string,
  stringOrNull,
} from "../field-checks.js";
import type { RunErrorReason, RunResult } from "../types.js";
import type { LegacyEventType } from "./types.js";

/** The failure kinds of schema 1, in documented order. */
export const LEGACY_FAILURE_KINDS = [
  "injected_http_error",
  "injected_rate_limit",
  "injected_malformed_json",
  "injected_disconnect",
  "client_disconnected",
  "client_timeout_inferred",
  "upstream_http_error",
  "proxy_error",
  "request_body_too_large",
  "upstream_stream_interrupted",
] as const;

const RUN_ERROR_REASONS = Object.keys({
  DEPENDENCY_START_FAILED: true,
  PROXY_START_FAILED: true,
  WORKLOAD_SPAWN_FAILED: true,
  INTERNAL_ERROR: true,
} satisfies Record<Exclude<RunErrorReason, "REPLAY_MISMATCH">, true>);
/** Events schema 3 adds the reason of a replay mismatch (docs/replay.md). */
export const RUN_ERROR_REASONS_WITH_REPLAY = [...RUN_ERROR_REASONS, "REPLAY_MISMATCH"];

const RUN_RESULTS = Object.keys({ PASSED: true, RECOVERED: true, FAILED: true } satisfies Record<
  RunResult,
  true
>);

const http: FieldCheck = { test: (v) => v === "http", expected: '"http"' };

/**
 * The payload keys of every event type after `kind`, in documented order (docs/events.md), with the
 * check each value must pass.
 */
export const LEGACY_PAYLOAD_FIELDS = {
  RUN_STARTED: { scenario_name: string },
  DEPENDENCY_STARTED: { base_url: string, pid: integer },
  DEPENDENCY_READY: { base_url: string, readiness_path: string },
  INJECTOR_STARTED: { proxy_url: string, upstream_url: string },
  WORKLOAD_STARTED: { name: string, pid: integer },
  OPERATION_OBSERVED: {
    operation_id: string,
    protocol: http,
    method: string,
    path: string,
    query_hash: string,
    body_hash: string,
    fingerprint: string,
  },
  FAULT_INJECTED: { operation_id: string, fault_type: string, parameters: integerRecord },
  OPERATION_FAILED: {
    operation_id: string,
    fingerprint: string,
    failure_kind: oneOf(LEGACY_FAILURE_KINDS),
    status_code: integerOrNull,
    fault_related: boolean,
  },
  RETRY_OBSERVED: {
    operation_id: string,
    retry_of_operation_id: string,
    fingerprint: string,
    attempt: positiveInteger,
  },
  OPERATION_SUCCEEDED: {
    operation_id: string,
    fingerprint: string,
    status_code: integer,
    duration_ms: nonNegativeInteger,
    fault_related: boolean,
  },
  WORKLOAD_COMPLETED: {
    exit_code: integerOrNull,
    timed_out: boolean,
    interrupted: boolean,
    duration_ms: nonNegativeInteger,
    error: stringOrNull,
  },
  DEPENDENCY_STOPPED: { exit_code: integerOrNull },
  RUN_ERROR: { reason_code: oneOf(RUN_ERROR_REASONS), message: string },
  RUN_COMPLETED: { result: oneOf(RUN_RESULTS), reason_code: string, duration_ms: nonNegativeInteger },
} as const satisfies Record<LegacyEventType, Record<string, FieldCheck>>;
