/** Workload and result/reason rules of docs/reports.md "Strict reading", schemas 2 and 3. */
import type { RunResult } from "../../events/types.js";
import type { ReportV2, ReportV3, ReportV4 } from "../types.js";
import { RUN_ERROR_REASONS } from "./reasons.js";
import type { Violations } from "./violation.js";

export function checkWorkload(report: ReportV2 | ReportV3 | ReportV4, v: Violations): void {
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

/** Re-derives result and reason from the report, with the precedence of docs/evidence.md. */
export function expectedOutcome(report: ReportV2 | ReportV3): readonly [RunResult, string] {
  const { workload, recovery } = report;
  if (workload.interrupted) return ["FAILED", "INTERRUPTED"];
  if (workload.timed_out) return ["FAILED", "WORKLOAD_TIMED_OUT"];
  if (workload.exit_code === null) return ["FAILED", "WORKLOAD_NOT_COMPLETED"];
  if (workload.exit_code !== workload.expected_exit_code) return ["FAILED", "WORKLOAD_EXIT_CODE_MISMATCH"];
  if (!report.fault.configured) return ["PASSED", "BASELINE_SUCCEEDED"];
  if (report.faults_injected === 0) return ["FAILED", "FAULT_NOT_TRIGGERED"];
  const incomplete = incompleteTriggerReason(report);
  if (incomplete !== null) return ["FAILED", incomplete];
  if (recovery.required === 0) return ["PASSED", "FAULT_TOLERATED"];
  if (recovery.successful === recovery.required) return ["RECOVERED", "RECOVERY_OBSERVED"];
  return ["FAILED", "RECOVERY_NOT_OBSERVED"];
}

export function checkOutcome(report: ReportV2 | ReportV3, v: Violations): void {
  if (RUN_ERROR_REASONS.has(report.reason_code)) {
    v.check(report.result === "FAILED", "run-error-not-failed", "result");
    return;
  }
  const [result, reason] = expectedOutcome(report);
  v.check(
    report.result === result && report.reason_code === reason,
    "outcome-contradicts-evidence",
    "reason_code",
  );
}
