import type { ReportV4 } from "../../types-v4.js";
import { checkReportedOutcome, checkWorkload } from "../outcome-rules.js";
import { type Violation, Violations } from "../violation.js";
import { checkChecks } from "./check-rules.js";
import { checkDependencies } from "./dependency-rules.js";
import { checkFaults } from "./fault-rules.js";
import { checkFaultListMetrics } from "./metric-rules.js";
import { allowedFaultListOutcomes } from "./outcome-rules.js";
import { checkFaultListRecovery } from "./recovery-rules.js";

/**
 * Every consistency rule a schema-4 report breaks, in a fixed order (dependencies, faults,
 * recovery, metrics, checks, workload, outcome). Pure; empty when the report is consistent.
 */
export function faultListConsistencyViolations(report: ReportV4): Violation[] {
  const violations = new Violations();
  checkDependencies(report, violations);
  checkFaults(report, violations);
  checkFaultListRecovery(report, violations);
  checkFaultListMetrics(report, violations);
  checkChecks(report, violations);
  checkWorkload(report, violations);
  checkReportedOutcome(report, allowedFaultListOutcomes, violations);
  return violations.list;
}
