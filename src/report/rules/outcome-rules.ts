/**
 * Workload and result/reason rules of docs/reports.md "Strict reading", schemas 2 and 3, and what
 * schema 4 shares of them (rules/v4/).
 */
import type { RunResult } from "../../events/types.js";
import type { ReportHead, ReportV2, ReportV3 } from "../types.js";
import { RUN_ERROR_REASONS } from "./reasons.js";
import type { Violations } from "./violation.js";

export function checkWorkload(report: ReportHead, v: Violations): void {
  v.check(
    report.workload_exit_code === report.workload.exit_code,
    "exit-code-mismatch",
    "workload_exit_code",
  );
  v.check(
    !(report.workload.interrupted && report.workload.timed_out),
    "interrupted-and-timed-out",
    "workload",
  );
}

/** Whether the trigger evidence is incomplete, and which reason code says so. */
function incompleteTriggerReason(report: ReportV2 | ReportV3): string | null {
  if (report.schema_version === 2) {
    return report.fault.schedule_completed ? null : "FAULT_SCHEDULE_INCOMPLETE";
  }
  const trigger = report.fault.trigger;
  if (trigger === null || trigger.completed) return null;
  return trigger.kind === "occurrence_schedule" ? "FAULT_SCHEDULE_INCOMPLETE" : "TRIGGER_WINDOW_INCOMPLETE";
}

export type Outcome = readonly [RunResult, string];

/** The outcome of a workload that did not end at all (rules 2–4 of docs/evidence.md), else null. */
export function unfinishedWorkload({ workload }: ReportHead): Outcome | null {
  if (workload.interrupted) return ["FAILED", "INTERRUPTED"];
  if (workload.timed_out) return ["FAILED", "WORKLOAD_TIMED_OUT"];
  if (workload.exit_code === null) return ["FAILED", "WORKLOAD_NOT_COMPLETED"];
  return null;
}

/** Re-derives result and reason from the report, with the precedence of docs/evidence.md. */
export function expectedOutcome(report: ReportV2 | ReportV3): Outcome {
  const { workload, recovery } = report;
  const unfinished = unfinishedWorkload(report);
  if (unfinished !== null) return unfinished;
  if (workload.exit_code !== workload.expected_exit_code) return ["FAILED", "WORKLOAD_EXIT_CODE_MISMATCH"];
  if (!report.fault.configured) return ["PASSED", "BASELINE_SUCCEEDED"];
  if (report.faults_injected === 0) return ["FAILED", "FAULT_NOT_TRIGGERED"];
  const incomplete = incompleteTriggerReason(report);
  if (incomplete !== null) return ["FAILED", incomplete];
  if (recovery.required === 0) return ["PASSED", "FAULT_TOLERATED"];
  if (recovery.successful === recovery.required) return ["RECOVERED", "RECOVERY_OBSERVED"];
  return ["FAILED", "RECOVERY_NOT_OBSERVED"];
}

/**
 * A run error only has to say FAILED; any other result and reason must be one of the outcomes
 * `allowed` derives from the evidence.
 */
export function checkReportedOutcome<R extends ReportHead>(
  report: R,
  allowed: (report: R) => readonly Outcome[],
  v: Violations,
): void {
  if (RUN_ERROR_REASONS.has(report.reason_code)) {
    v.check(report.result === "FAILED", "run-error-not-failed", "result");
    return;
  }
  const agrees = allowed(report).some(
    ([result, reason]) => report.result === result && report.reason_code === reason,
  );
  v.check(agrees, "outcome-contradicts-evidence", "reason_code");
}
