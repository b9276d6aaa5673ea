/** Shape readers shared by every report schema: the head, the timing and the recovery rows. */
import type { RunResult } from "../events/types.js";
import { FIELD, type Fields, type StrictObject } from "./strict-json.js";
import type { ReportEvidenceRow, ReportHead, ReportTiming, ReportWorkload } from "./types.js";

const RESULTS: readonly RunResult[] = ["PASSED", "RECOVERED", "FAILED"];
const WORKLOAD: Fields<ReportWorkload> = {
  name: FIELD.string,
  expected_exit_code: FIELD.integer,
  exit_code: FIELD.nullableInteger,
  timed_out: FIELD.boolean,
  interrupted: FIELD.boolean,
};
const TIMING: Fields<ReportTiming> = { started_at: FIELD.timestamp, completed_at: FIELD.timestamp };
const EVIDENCE: Fields<ReportEvidenceRow> = {
  failed_operation_id: FIELD.string,
  retry_operation_id: FIELD.nullableString,
  recovery_latency_ms: FIELD.nullableInteger,
};

/** The keys from `run_id` to `workload`, in file order; `reasonCodes` are the ones the schema knows. */
function headFields(reasonCodes: readonly string[]): Fields<ReportHead> {
  return {
    run_id: FIELD.string,
    scenario_name: FIELD.string,
    result: FIELD.oneOf(RESULTS),
    reason_code: FIELD.oneOf(reasonCodes),
    duration_ms: FIELD.integer,
    faults_injected: FIELD.integer,
    operations_observed: FIELD.integer,
    successful_operations: FIELD.integer,
    failed_operations: FIELD.integer,
    retries_observed: FIELD.integer,
    workload_exit_code: FIELD.nullableInteger,
    workload: (root, key) => root.record(key, WORKLOAD),
  };
}

/** The top-level keys from `schema_version` to `workload`, the same in every schema. */
export const HEAD_KEYS = ["schema_version", ...Object.keys(headFields([]))];
/** The last top-level keys of every schema. */
export const TAIL_KEYS = ["timing", "artifacts", "diagnostics"];

/** The keys from `run_id` to `workload`, read in file order (any other reason code is rejected). */
export function readHead(root: StrictObject, reasonCodes: readonly string[]): ReportHead {
  return root.read(headFields(reasonCodes));
}

/** The `timing` object of the report. */
export function readTiming(root: StrictObject): ReportTiming {
  return root.record("timing", TIMING);
}

/** The rows of `recovery.evidence`, each with the keys of `extra` read before the shared keys. */
export function readEvidenceRows<T extends object>(
  recovery: StrictObject,
  extra = {} as Fields<T>,
): (T & ReportEvidenceRow)[] {
  return recovery.recordList("evidence", { ...extra, ...EVIDENCE } as Fields<T & ReportEvidenceRow>);
}
