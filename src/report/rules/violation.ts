/**
 * The consistency rules of docs/reports.md "Strict reading" (schemas 2 and 3) and of report schema 4
 * (docs/reports.md), one id per rule.
 * Each invalid test fixture is named after the rule it breaks.
 */
export type RuleId =
  // fault and trigger evidence
  | "schedule-not-strictly-increasing"
  | "completed-not-prefix"
  | "injected-contradicts-schedule"
  | "completed-flag-contradicts"
  | "configured-fault-incomplete"
  | "baseline-carries-fault"
  | "probability-invalid"
  | "seed-out-of-range"
  | "window-invalid"
  | "evaluated-out-of-range"
  | "selected-outside-evaluated"
  | "selection-contradicts-selector"
  | "faults-injected-mismatch"
  // recovery evidence
  | "required-mismatch"
  | "successful-mismatch"
  | "duplicate-failed-id"
  | "duplicate-retry-id"
  | "retry-latency-half-null"
  | "baseline-has-recovery-rows"
  // metrics
  | "negative-count"
  | "terminal-operations-exceed-observed"
  | "injections-exceed-observed"
  | "retries-exceed-observed"
  | "required-exceeds-failed"
  | "required-exceeds-injections"
  | "successful-exceeds-retries"
  | "successful-exceeds-successful-operations"
  // workload and outcome
  | "exit-code-mismatch"
  | "interrupted-and-timed-out"
  | "run-error-not-failed"
  | "outcome-contradicts-evidence"
  // schema 4 only: dependencies, faults, recovery rows and checks
  | "duplicate-dependency-name"
  | "dependency-protocol-invalid"
  | "dependency-operations-mismatch"
  | "artifacts-dependencies-mismatch"
  | "duplicate-fault-id"
  | "fault-dependency-unknown"
  | "fault-selections-mismatch"
  | "evidence-fault-unknown"
  | "fault-recovery-mismatch"
  | "check-order-invalid"
  | "check-passed-contradicts-findings"
  | "check-not-evaluated-but-workload-ran";

export interface Violation {
  readonly rule: RuleId;
  /** Where the contradiction shows (`fault.completed_occurrences`). */
  readonly keyPath: string;
}

/** Collects violations; `check(false, ...)` records one. */
export class Violations {
  readonly list: Violation[] = [];

  check(ok: boolean, rule: RuleId, keyPath: string): void {
    if (!ok) this.list.push({ rule, keyPath });
  }
}

/** Positive and strictly increasing. */
export function isStrictlyIncreasingPositive(values: readonly number[]): boolean {
  return values.every((value, index) => value > 0 && (index === 0 || value > (values[index - 1] as number)));
}

export function isPrefix(prefix: readonly number[], of: readonly number[]): boolean {
  return prefix.length <= of.length && prefix.every((value, index) => value === of[index]);
}

export function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && isPrefix(a, b);
}

export function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}
