/**
 * Recovery evidence and metric rules of docs/reports.md "Strict reading", schemas 2 and 3, and the
 * count rules schema 4 shares (rules/v4/).
 */
import type { ReportEvidenceRow, ReportHead, ReportRecoveryV2, ReportV2, ReportV3 } from "../types.js";
import { hasDuplicates, type Violations } from "./violation.js";

/** The retries that resolved rows, in row order. */
export function retryIdsOf(evidence: readonly ReportEvidenceRow[]): string[] {
  return evidence.flatMap((row) => (row.retry_operation_id === null ? [] : [row.retry_operation_id]));
}

/** A row has a latency exactly when it has a retry. */
export function latencyMatchesRetry(row: ReportEvidenceRow): boolean {
  return (row.retry_operation_id === null) === (row.recovery_latency_ms === null);
}

/**
 * The required and successful counts of the rows that need resolving, and no failure twice (nor a
 * retry, unless one success may resolve several rows).
 */
export function checkRowCounts(
  { required, successful, evidence }: ReportRecoveryV2,
  requiredRows: readonly ReportEvidenceRow[],
  retriesMayRepeat: boolean,
  v: Violations,
): void {
  v.check(required === requiredRows.length, "required-mismatch", "recovery.required");
  v.check(successful === retryIdsOf(requiredRows).length, "successful-mismatch", "recovery.successful");
  const failedIds = evidence.map((row) => row.failed_operation_id);
  v.check(!hasDuplicates(failedIds), "duplicate-failed-id", "recovery.evidence");
  const retriesRepeat = hasDuplicates(retryIdsOf(evidence));
  v.check(retriesMayRepeat || !retriesRepeat, "duplicate-retry-id", "recovery.evidence");
}

export function checkRecovery(report: ReportV2 | ReportV3, v: Violations): void {
  const { evidence } = report.recovery;
  checkRowCounts(report.recovery, evidence, false, v);
  evidence.forEach((row, index) => {
    v.check(latencyMatchesRetry(row), "retry-latency-half-null", `recovery.evidence[${index}]`);
  });
  v.check(
    report.fault.configured || evidence.length === 0,
    "baseline-has-recovery-rows",
    "recovery.evidence",
  );
}

/** A count and its key path, checked for a negative value (`null`: nothing to check). */
export type Count = readonly [keyPath: string, value: number | null];

/** The top-level counts every schema has, in file order. */
export function headCounts(report: ReportHead): Count[] {
  return [
    ["duration_ms", report.duration_ms],
    ["faults_injected", report.faults_injected],
    ["operations_observed", report.operations_observed],
    ["successful_operations", report.successful_operations],
    ["failed_operations", report.failed_operations],
    ["retries_observed", report.retries_observed],
  ];
}

/** `recovery.required`, `recovery.successful` and every row's latency. */
export function recoveryCounts(recovery: ReportRecoveryV2): Count[] {
  return [
    ["recovery.required", recovery.required],
    ["recovery.successful", recovery.successful],
    ...recovery.evidence.map(
      (row, index): Count => [`recovery.evidence[${index}].recovery_latency_ms`, row.recovery_latency_ms],
    ),
  ];
}

/** No negative count; then the operations, injections and retries within the observed operations. */
export function checkCountBounds(report: ReportHead, counts: readonly Count[], v: Violations): void {
  for (const [keyPath, value] of counts) v.check(value === null || value >= 0, "negative-count", keyPath);
  const observed = report.operations_observed;
  v.check(
    report.successful_operations + report.failed_operations <= observed,
    "terminal-operations-exceed-observed",
    "operations_observed",
  );
  v.check(report.faults_injected <= observed, "injections-exceed-observed", "faults_injected");
  v.check(report.retries_observed <= observed, "retries-exceed-observed", "retries_observed");
}

export function checkMetrics(report: ReportV2 | ReportV3, v: Violations): void {
  checkCountBounds(report, [...headCounts(report), ...recoveryCounts(report.recovery)], v);
  const { required, successful } = report.recovery;
  v.check(required <= report.failed_operations, "required-exceeds-failed", "recovery.required");
  v.check(required <= report.faults_injected, "required-exceeds-injections", "recovery.required");
  v.check(successful <= report.retries_observed, "successful-exceeds-retries", "recovery.successful");
  v.check(
    successful <= report.successful_operations,
    "successful-exceeds-successful-operations",
    "recovery.successful",
  );
}
