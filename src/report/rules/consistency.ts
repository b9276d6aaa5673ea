import { isReportV4, type ReportV2, type ReportV3, type ReportV4 } from "../types.js";
import { checkFaultV2, checkFaultV3 } from "./fault-rules.js";
import { checkReportedOutcome, checkWorkload, expectedOutcome } from "./outcome-rules.js";
import { checkMetrics, checkRecovery } from "./recovery-rules.js";
import { faultListConsistencyViolations } from "./v4/consistency.js";
import { type Violation, Violations } from "./violation.js";

/**
 * Every consistency rule of docs/reports.md "Strict reading" that a schema-2 or schema-3 report
 * breaks, in a fixed order (fault, recovery, metrics, workload, outcome); schema 4's rules for a
 * schema-4 report (rules/v4/). Pure; empty when the report is consistent.
 */
export function consistencyViolations(report: ReportV2 | ReportV3 | ReportV4): Violation[] {
  if (isReportV4(report)) return faultListConsistencyViolations(report);
  const violations = new Violations();
  if (report.schema_version === 2) checkFaultV2(report, violations);
  else checkFaultV3(report, violations);
  checkRecovery(report, violations);
  checkMetrics(report, violations);
  checkWorkload(report, violations);
  checkReportedOutcome(report, (evidence) => [expectedOutcome(evidence)], violations);
  return violations.list;
}
