/**
 * Report 4: result and reason re-derived with the precedence table of docs/evidence.md. A report
 * does not carry everything the table reads (which failures were retried, failure kinds), so
 * where it cannot tell, every reason the evidence allows is accepted.
 */
import { CHECKS } from "../../../checks/registry.js";
import { CORRUPTION_TYPES } from "../../../scenario/corruption.js";
import type { ReportV4 } from "../../types-v4.js";
import { selectionCount } from "../../v4/lasting-trigger.js";
import { type Outcome, unfinishedWorkload } from "../outcome-rules.js";

/** The outcomes the report's evidence allows, the one derived last. */
export function allowedFaultListOutcomes(report: ReportV4): Outcome[] {
  const { workload, faults, recovery, checks } = report;
  // In place of rule 4 (docs/checks.md): a timed-out run with an enforced fail_fast finding.
  const hung = checks.some(
    (check) => check.name === "fail_fast" && check.mode === "enforce" && !check.passed,
  );
  if (hung && !workload.interrupted && workload.timed_out) return [["FAILED", CHECKS.fail_fast.reason]];
  const unfinished = unfinishedWorkload(report);
  if (unfinished !== null) return [unfinished];

  const faultOf = new Map(faults.map((fault) => [fault.id, fault]));
  const rowsOf = (expect: string) =>
    recovery.evidence.filter((row) => faultOf.get(row.fault_id)?.expect === expect);
  // Rule 4a: a resolved give_up row was certainly retried; an unresolved one may have been.
  const giveUpRows = rowsOf("give_up");
  if (giveUpRows.some((row) => row.retry_operation_id !== null)) return [["FAILED", "UNEXPECTED_RETRY"]];
  // ... and a call a give_up corruption fault corrupted may have been repeated (docs/truth.md).
  const corruptedGiveUp = faults.some(
    (fault) => fault.expect === "give_up" && CORRUPTION_TYPES.has(fault.type) && fault.injected > 0,
  );
  const allowed: Outcome[] = giveUpRows.length > 0 || corruptedGiveUp ? [["FAILED", "UNEXPECTED_RETRY"]] : [];
  const then = (outcome: Outcome): Outcome[] => [...allowed, outcome];

  if (workload.exit_code !== workload.expected_exit_code)
    return then(["FAILED", "WORKLOAD_EXIT_CODE_MISMATCH"]);
  // Report 5 (truth.md): a failed verify after a met success, then a canary seen in a sink.
  if (report.verify != null && !report.verify.passed) return then(["FAILED", "CLAIMED_SUCCESS"]);
  if (report.canaries !== undefined && report.canaries.length > 0)
    return then(["FAILED", "CORRUPTION_PROPAGATED"]);
  if (faults.length === 0) return then(["PASSED", "BASELINE_SUCCEEDED"]);
  if (faults.some((fault) => selectionCount(fault.trigger) === 0))
    return then(["FAILED", "FAULT_NOT_TRIGGERED"]);
  const incomplete = (kind: string) =>
    faults.some((f) => f.trigger.kind === kind && "completed" in f.trigger && !f.trigger.completed);
  if (incomplete("occurrence_schedule")) return then(["FAILED", "FAULT_SCHEDULE_INCOMPLETE"]);
  if (incomplete("seeded_probability")) return then(["FAILED", "TRIGGER_WINDOW_INCOMPLETE"]);
  if (faults.some((fault) => fault.not_applied > 0)) return then(["FAILED", "FAULT_NOT_APPLIED"]);
  if (recovery.evidence.length === 0) return then(["PASSED", "FAULT_TOLERATED"]);

  const unresolved = rowsOf("recover").filter((row) => row.retry_operation_id === null);
  if (unresolved.length > 0) {
    // Rule 16 needs the failure kind: only a truncating fault can have caused it.
    const truncated = unresolved.some((row) => faultOf.get(row.fault_id)?.type === "http_stream_truncate");
    if (truncated) allowed.push(["FAILED", "PARTIAL_RESPONSE_ACCEPTED"]);
    return then(["FAILED", "RECOVERY_NOT_OBSERVED"]);
  }
  const enforced = checks.find((check) => check.mode === "enforce" && check.passed === false);
  if (enforced !== undefined) return then(["FAILED", CHECKS[enforced.name].reason]);
  if (recovery.evidence.some((row) => row.retry_operation_id !== null))
    return then(["RECOVERED", "RECOVERY_OBSERVED"]);
  return then(["PASSED", "FAILURE_HANDLED"]);
}
