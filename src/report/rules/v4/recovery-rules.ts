/** Report 4: recovery rows, their faults, and the required/successful counts overall and per fault. */
import type { ReportEvidenceRowV4, ReportV4 } from "../../types-v4.js";
import { latencyMatchesRetry, retryIdsOf } from "../recovery-rules.js";
import { hasDuplicates, type Violations } from "../violation.js";

const resolved = (row: ReportEvidenceRowV4) => row.retry_operation_id !== null;

export function checkFaultListRecovery(report: ReportV4, v: Violations): void {
  const { mode, required, successful, evidence } = report.recovery;
  v.check(
    report.faults.length > 0 || evidence.length === 0,
    "baseline-has-recovery-rows",
    "recovery.evidence",
  );
  const expectOf = new Map(report.faults.map((fault) => [fault.id, fault.expect]));
  evidence.forEach((row, index) => {
    v.check(expectOf.has(row.fault_id), "evidence-fault-unknown", `recovery.evidence[${index}].fault_id`);
    v.check(latencyMatchesRetry(row), "retry-latency-half-null", `recovery.evidence[${index}]`);
  });
  // Only rows of `recover` faults need resolving.
  const requiredRows = evidence.filter((row) => expectOf.get(row.fault_id) === "recover");
  v.check(required === requiredRows.length, "required-mismatch", "recovery.required");
  v.check(successful === requiredRows.filter(resolved).length, "successful-mismatch", "recovery.successful");
  v.check(
    !hasDuplicates(evidence.map((row) => row.failed_operation_id)),
    "duplicate-failed-id",
    "recovery.evidence",
  );
  // Under `chain` one success may resolve several rows; under `fifo` it resolves one.
  v.check(
    mode === "chain" || !hasDuplicates(retryIdsOf(evidence)),
    "duplicate-retry-id",
    "recovery.evidence",
  );

  report.faults.forEach((fault, index) => {
    const rows = fault.expect === "recover" ? evidence.filter((row) => row.fault_id === fault.id) : [];
    v.check(
      fault.recovery.required === rows.length && fault.recovery.successful === rows.filter(resolved).length,
      "fault-recovery-mismatch",
      `faults[${index}].recovery`,
    );
  });
}
