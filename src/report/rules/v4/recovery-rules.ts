/** Report 4: recovery rows, their faults, and the required/successful counts overall and per fault. */
import type { ReportV4 } from "../../types-v4.js";
import { checkRowCounts, latencyMatchesRetry, retryIdsOf } from "../recovery-rules.js";
import type { Violations } from "../violation.js";

export function checkFaultListRecovery(report: ReportV4, v: Violations): void {
  const { evidence } = report.recovery;
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
  // Only rows of `recover` faults need resolving; under `chain` one success may resolve several.
  const requiredRows = evidence.filter((row) => expectOf.get(row.fault_id) === "recover");
  checkRowCounts(report.recovery, requiredRows, report.recovery.mode === "chain", v);

  report.faults.forEach((fault, index) => {
    const rows = fault.expect === "recover" ? evidence.filter((row) => row.fault_id === fault.id) : [];
    v.check(
      fault.recovery.required === rows.length && fault.recovery.successful === retryIdsOf(rows).length,
      "fault-recovery-mismatch",
      `faults[${index}].recovery`,
    );
  });
}
