/** Report 4: no negative count anywhere, and counts that cannot exceed what they count. */
import type { ReportV4 } from "../../types-v4.js";
import type { Violations } from "../violation.js";

function counts(report: ReportV4): [string, number | null][] {
  return [
    ["duration_ms", report.duration_ms],
    ["faults_injected", report.faults_injected],
    ["operations_observed", report.operations_observed],
    ["successful_operations", report.successful_operations],
    ["failed_operations", report.failed_operations],
    ["retries_observed", report.retries_observed],
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
    ["recovery.required", report.recovery.required],
    ["recovery.successful", report.recovery.successful],
    ...report.recovery.evidence.map((row, i): [string, number | null] => [
      `recovery.evidence[${i}].recovery_latency_ms`,
      row.recovery_latency_ms,
    ]),
    ...report.checks.flatMap((check, c) =>
      check.findings.flatMap((finding, f) =>
        Object.entries(finding).flatMap(([key, value]): [string, number][] =>
          typeof value === "number" ? [[`checks[${c}].findings[${f}].${key}`, value]] : [],
        ),
      ),
    ),
  ];
}

export function checkMetricsV4(report: ReportV4, v: Violations): void {
  for (const [keyPath, value] of counts(report))
    v.check(value === null || value >= 0, "negative-count", keyPath);

  const observed = report.operations_observed;
  const { successful, evidence } = report.recovery;
  v.check(
    report.successful_operations + report.failed_operations <= observed,
    "terminal-operations-exceed-observed",
    "operations_observed",
  );
  v.check(report.faults_injected <= observed, "injections-exceed-observed", "faults_injected");
  v.check(report.retries_observed <= observed, "retries-exceed-observed", "retries_observed");
  v.check(evidence.length <= report.failed_operations, "required-exceeds-failed", "recovery.evidence");
  v.check(successful <= report.retries_observed, "successful-exceeds-retries", "recovery.successful");
  // One success may resolve several rows (chain): it is the resolving operations that succeeded.
  const resolvers = new Set(
    evidence.flatMap((row) => (row.retry_operation_id === null ? [] : [row.retry_operation_id])),
  );
  v.check(
    resolvers.size <= report.successful_operations,
    "successful-exceeds-successful-operations",
    "recovery.evidence",
  );
}
