/** Recovery evidence and metric rules of docs/reports.md "Strict reading", schemas 2 and 3. */
import type { ReportV2, ReportV3 } from "../types.js";
import { hasDuplicates, type Violations } from "./violation.js";

export function checkRecovery(report: ReportV2 | ReportV3, v: Violations): void {
  const { required, successful, evidence } = report.recovery;
  v.check(required === evidence.length, "required-mismatch", "recovery.required");
  const retryIds = evidence.flatMap((row) =>
    row.retry_operation_id === null ? [] : [row.retry_operation_id],
  );
  v.check(successful === retryIds.length, "successful-mismatch", "recovery.successful");
  v.check(
    !hasDuplicates(evidence.map((row) => row.failed_operation_id)),
    "duplicate-failed-id",
    "recovery.evidence",
  );
  v.check(!hasDuplicates(retryIds), "duplicate-retry-id", "recovery.evidence");
  evidence.forEach((row, index) => {
    v.check(
      (row.retry_operation_id === null) === (row.recovery_latency_ms === null),
      "retry-latency-half-null",
      `recovery.evidence[${index}]`,
    );
  });
  v.check(
    report.fault.configured || evidence.length === 0,
    "baseline-has-recovery-rows",
    "recovery.evidence",
  );
}

export function checkMetrics(report: ReportV2 | ReportV3, v: Violations): void {
  const counts: ReadonlyArray<readonly [string, number | null]> = [
    ["duration_ms", report.duration_ms],
    ["faults_injected", report.faults_injected],
    ["operations_observed", report.operations_observed],
    ["successful_operations", report.successful_operations],
    ["failed_operations", report.failed_operations],
    ["retries_observed", report.retries_observed],
    ["recovery.required", report.recovery.required],
    ["recovery.successful", report.recovery.successful],
    ...report.recovery.evidence.map(
      (row, index) => [`recovery.evidence[${index}].recovery_latency_ms`, row.recovery_latency_ms] as const,
    ),
  ];
  for (const [keyPath, value] of counts) v.check(value === null || value >= 0, "negative-count", keyPath);

  const observed = report.operations_observed;
  const { required, successful } = report.recovery;
  v.check(
    report.successful_operations + report.failed_operations <= observed,
    "terminal-operations-exceed-observed",
    "operations_observed",
  );
  v.check(report.faults_injected <= observed, "injections-exceed-observed", "faults_injected");
  v.check(report.retries_observed <= observed, "retries-exceed-observed", "retries_observed");
  v.check(required <= report.failed_operations, "required-exceeds-failed", "recovery.required");
  v.check(required <= report.faults_injected, "required-exceeds-injections", "recovery.required");
  v.check(successful <= report.retries_observed, "successful-exceeds-retries", "recovery.successful");
  v.check(
    successful <= report.successful_operations,
    "successful-exceeds-successful-operations",
    "recovery.successful",
  );
}
