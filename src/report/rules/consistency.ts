import { isReportV4, type ReportV2, type ReportV3, type ReportV4 } from "../types.js";
import { checkFaultV2, checkFaultV3 } from "./fault-rules.js";
import { checkReportedOutcome, checkWorkload, expectedOutcome } from "./outcome-rules.js";
import { checkMetrics, checkRecovery } from "./recovery-rules.js";
import { checkChecks } from "./v4/check-rules.js";
import { checkDependencies } from "./v4/dependency-rules.js";
import { checkFaults } from "./v4/fault-rules.js";
import { checkFaultListMetrics } from "./v4/metric-rules.js";
import { allowedFaultListOutcomes } from "./v4/outcome-rules.js";
import { checkFaultListRecovery } from "./v4/recovery-rules.js";
import { type Violation, Violations } from "./violation.js";

type Rule<R> = (report: R, v: Violations) => void;

/** Schemas 2 and 3, in their fixed order: fault, recovery, metrics, workload, outcome. */
const SINGLE_FAULT_RULES: readonly Rule<ReportV2 | ReportV3>[] = [
  (report, v) => (report.schema_version === 2 ? checkFaultV2(report, v) : checkFaultV3(report, v)),
  checkRecovery,
  checkMetrics,
  checkWorkload,
  (report, v) => checkReportedOutcome(report, (evidence) => [expectedOutcome(evidence)], v),
];

/** Schemas 4 and 5: dependencies, faults, recovery, metrics, checks, workload, outcome. */
const FAULT_LIST_RULES: readonly Rule<ReportV4>[] = [
  checkDependencies,
  checkFaults,
  checkFaultListRecovery,
  checkFaultListMetrics,
  checkChecks,
  checkWorkload,
  (report, v) => checkReportedOutcome(report, allowedFaultListOutcomes, v),
];

/**
 * Every consistency rule of docs/reports.md "Strict reading" the report breaks, in its schema's
 * order (the reader names the first). Pure; empty when the report is consistent.
 */
export function consistencyViolations(report: ReportV2 | ReportV3 | ReportV4): Violation[] {
  const violations = new Violations();
  if (isReportV4(report)) for (const rule of FAULT_LIST_RULES) rule(report, violations);
  else for (const rule of SINGLE_FAULT_RULES) rule(report, violations);
  return violations.list;
}
