/** Shape readers shared by every report schema: the head, the timing and the recovery rows. */
import type { RunResult } from "../events/types.js";
import type { StrictObject } from "./strict-json.js";
import type { ReportEvidenceRow, ReportTiming, ReportWorkload } from "./types.js";

const RESULTS: readonly RunResult[] = ["PASSED", "RECOVERED", "FAILED"];
/** The top-level keys from `schema_version` to `workload`, the same in every schema. */
export const HEAD_KEYS = [
  "schema_version",
  "run_id",
  "scenario_name",
  "result",
  "reason_code",
  "duration_ms",
  "faults_injected",
  "operations_observed",
  "successful_operations",
  "failed_operations",
  "retries_observed",
  "workload_exit_code",
  "workload",
];
/** The last top-level keys of every schema. */
export const TAIL_KEYS = ["timing", "artifacts", "diagnostics"];
const EVIDENCE_KEYS = ["failed_operation_id", "retry_operation_id", "recovery_latency_ms"];
const WORKLOAD_KEYS = ["name", "expected_exit_code", "exit_code", "timed_out", "interrupted"];
const TIMING_KEYS = ["started_at", "completed_at"];

/**
 * The keys from `run_id` to `workload`, read in file order. `reasonCodes` lists the reason codes
 * the report's schema knows (any other is rejected).
 */
export function readHead(root: StrictObject, reasonCodes: readonly string[]) {
  const common = {
    run_id: root.string("run_id"),
    scenario_name: root.string("scenario_name"),
    result: root.oneOf("result", RESULTS),
    reason_code: root.oneOf("reason_code", reasonCodes),
    duration_ms: root.integer("duration_ms"),
    faults_injected: root.integer("faults_injected"),
    operations_observed: root.integer("operations_observed"),
    successful_operations: root.integer("successful_operations"),
    failed_operations: root.integer("failed_operations"),
    retries_observed: root.integer("retries_observed"),
    workload_exit_code: root.nullableInteger("workload_exit_code"),
  };
  const workload = root.object("workload", WORKLOAD_KEYS);
  const head: typeof common & { workload: ReportWorkload } = {
    ...common,
    workload: {
      name: workload.string("name"),
      expected_exit_code: workload.integer("expected_exit_code"),
      exit_code: workload.nullableInteger("exit_code"),
      timed_out: workload.boolean("timed_out"),
      interrupted: workload.boolean("interrupted"),
    },
  };
  return head;
}

/** The `timing` object of the report. */
export function readTiming(root: StrictObject): ReportTiming {
  const timing = root.object("timing", TIMING_KEYS);
  return { started_at: timing.timestamp("started_at"), completed_at: timing.timestamp("completed_at") };
}

/** The rows of `recovery.evidence`, each with `extraKeys` read by `extra` before the shared keys. */
export function readEvidenceRows<T extends object>(
  recovery: StrictObject,
  extraKeys: readonly string[] = [],
  extra: (row: StrictObject) => T = () => ({}) as T,
): (T & ReportEvidenceRow)[] {
  return recovery.objectList("evidence", [...extraKeys, ...EVIDENCE_KEYS]).map((row) => ({
    ...extra(row),
    failed_operation_id: row.string("failed_operation_id"),
    retry_operation_id: row.nullableString("retry_operation_id"),
    recovery_latency_ms: row.nullableInteger("recovery_latency_ms"),
  }));
}
