/** Report 4: no negative count anywhere, and counts that cannot exceed what they count. */
import type { ReportV4 } from "../../types-v4.js";
import { type Count, checkCountBounds, headCounts, recoveryCounts, retryIdsOf } from "../recovery-rules.js";
import type { Violations } from "../violation.js";

function counts(report: ReportV4): Count[] {
  return [
    ...headCounts(report),
    ...report.dependencies.flatMap((d, i): [string, number][] => [
      [`dependencies[${i}].operations_observed`, d.operations_observed],
      [`dependencies[${i}].failed_operations`, d.failed_operations],
    ]),
    ...report.faults.flatMap((f, i): [string, number][] => [
      [`faults[${i}].injected`, f.injected],
      [`faults[${i}].not_applied`, f.not_applied],
      [`faults[${i}].recovery.required`, f.recovery.required],
      [`faults[${i}].recovery.successful`, f.recovery.successful],
    ]),
    ...recoveryCounts(report.recovery),
    ...report.checks.flatMap((check, c) =>
      check.findings.flatMap((finding, f) =>
        Object.entries(finding).flatMap(([key, value]): [string, number][] =>
          typeof value === "number" ? [[`checks[${c}].findings[${f}].${key}`, value]] : [],
        ),
      ),
    ),
  ];
}

export function checkFaultListMetrics(report: ReportV4, v: Violations): void {
  checkCountBounds(report, counts(report), v);
  const { successful, evidence } = report.recovery;
  v.check(evidence.length <= report.failed_operations, "required-exceeds-failed", "recovery.evidence");
  v.check(successful <= report.retries_observed, "successful-exceeds-retries", "recovery.successful");
  // One success may resolve several rows (chain): it is the resolving operations that succeeded.
  const resolvers = new Set(retryIdsOf(evidence));
  v.check(
    resolvers.size <= report.successful_operations,
    "successful-exceeds-successful-operations",
    "recovery.evidence",
  );
}
