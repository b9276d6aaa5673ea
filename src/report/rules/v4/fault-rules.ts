/** Report 4: each fault's identity, trigger evidence and counts (schema 3's rules, per fault). */
import type { ReportV4 } from "../../types-v4.js";
import { selectionCount } from "../../v4/lasting-trigger.js";
import { checkTrigger } from "../fault-rules.js";
import { mayHaveIncompleteEvidence } from "../reasons.js";
import { hasDuplicates, type Violations } from "../violation.js";

export function checkFaults(report: ReportV4, v: Violations): void {
  const names = new Set(report.dependencies.map((dependency) => dependency.name));
  const exempt = mayHaveIncompleteEvidence(report.result, report.reason_code);
  v.check(!hasDuplicates(report.faults.map((fault) => fault.id)), "duplicate-fault-id", "faults");

  report.faults.forEach((fault, index) => {
    const path = `faults[${index}].`;
    v.check(names.has(fault.dependency), "fault-dependency-unknown", `${path}dependency`);
    const { trigger } = fault;
    checkTrigger(trigger, `${path}trigger.`, report.operations_observed, exempt, v);
    // The trigger counts selections: every injection, plus selections another fault acted on
    // (some of the not-applied ones), unless the run failed before its evidence was complete.
    const selections = selectionCount(trigger);
    const selectionsAgree = selections >= fault.injected && selections <= fault.injected + fault.not_applied;
    v.check(selectionsAgree || exempt, "fault-selections-mismatch", `${path}injected`);
  });

  const injected = report.faults.reduce((total, fault) => total + fault.injected, 0);
  const internalError = report.result === "FAILED" && report.reason_code === "INTERNAL_ERROR";
  v.check(
    injected === report.faults_injected || internalError,
    "faults-injected-mismatch",
    "faults_injected",
  );
}
