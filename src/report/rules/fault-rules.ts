/**
 * Fault and trigger evidence rules of docs/reports.md "Strict reading", schemas 2 and 3; schema 4
 * checks each fault's trigger with the same rules (rules/v4/).
 */
import { selectedOccurrences } from "../../triggers/probability-selector.js";
import { REPORT_LIMITS } from "../limits.js";
import { probabilityMillionths } from "../probability.js";
import type { ReportSeededProbabilityTrigger, ReportV2, ReportV3 } from "../types.js";
import type { ReportTriggerV4 } from "../v4/lasting-trigger.js";
import { mayHaveIncompleteEvidence } from "./reasons.js";
import { isPrefix, isStrictlyIncreasingPositive, sameList, type Violations } from "./violation.js";

const MAX_SEED = (1n << 64n) - 1n;

/** The schedule rules at `path` (e.g. `fault.trigger.`): increasing, completed a prefix, flag agrees. */
function checkSchedule(
  scheduled: readonly number[],
  completed: readonly number[],
  completedFlag: boolean,
  path: string,
  flagKey: string,
  v: Violations,
): void {
  v.check(
    isStrictlyIncreasingPositive(scheduled),
    "schedule-not-strictly-increasing",
    `${path}scheduled_occurrences`,
  );
  v.check(isPrefix(completed, scheduled), "completed-not-prefix", `${path}completed_occurrences`);
  v.check(
    completedFlag === sameList(completed, scheduled),
    "completed-flag-contradicts",
    `${path}${flagKey}`,
  );
}

export function checkFaultV2(report: ReportV2, v: Violations): void {
  const fault = report.fault;
  const scheduled = fault.scheduled_occurrences;
  const completed = fault.completed_occurrences;
  checkSchedule(scheduled, completed, fault.schedule_completed, "fault.", "schedule_completed", v);
  v.check(fault.injected === completed.length > 0, "injected-contradicts-schedule", "fault.injected");
  if (fault.configured) {
    v.check(fault.type !== null, "configured-fault-incomplete", "fault.type");
    v.check(scheduled.length > 0, "configured-fault-incomplete", "fault.scheduled_occurrences");
  } else {
    v.check(fault.type === null && scheduled.length === 0, "baseline-carries-fault", "fault");
  }
  // Only an INTERNAL_ERROR run may record more injections than its (complete) schedule has.
  const overInjection =
    report.result === "FAILED" &&
    report.reason_code === "INTERNAL_ERROR" &&
    report.faults_injected > completed.length &&
    fault.configured &&
    fault.schedule_completed;
  v.check(
    report.faults_injected === completed.length || overInjection,
    "faults-injected-mismatch",
    "faults_injected",
  );
}

export function checkFaultV3(report: ReportV3, v: Violations): void {
  const { fault } = report;
  const trigger = fault.trigger;
  const exempt = mayHaveIncompleteEvidence(report.result, report.reason_code);
  if (trigger !== null) checkTrigger(trigger, "fault.trigger.", report.operations_observed, exempt, v);

  if (!fault.configured) {
    v.check(fault.type === null && trigger === null && !fault.injected, "baseline-carries-fault", "fault");
    v.check(report.faults_injected === 0 || exempt, "faults-injected-mismatch", "faults_injected");
    return;
  }
  v.check(fault.type !== null, "configured-fault-incomplete", "fault.type");
  v.check(trigger !== null, "configured-fault-incomplete", "fault.trigger");
  if (trigger === null) return;
  // The injections are the completed (schedule) or selected (window) ordinals, and `injected`
  // says whether there were any, unless the run failed before its evidence was complete.
  const ordinals =
    trigger.kind === "occurrence_schedule" ? trigger.completed_occurrences : trigger.selected_occurrences;
  const countAgrees =
    report.faults_injected === ordinals.length && fault.injected === report.faults_injected > 0;
  v.check(countAgrees || exempt, "faults-injected-mismatch", "faults_injected");
}

/**
 * The rules of a schedule or a probability window at `path` (`fault.trigger.` in schema 3,
 * `faults[i].trigger.` in schema 4); the lasting triggers of schema 4 have none of their own.
 */
export function checkTrigger(
  trigger: ReportTriggerV4,
  path: string,
  operationsObserved: number,
  exempt: boolean,
  v: Violations,
): void {
  if (trigger.kind === "occurrence_schedule") {
    const { scheduled_occurrences: scheduled, completed_occurrences: completed } = trigger;
    v.check(scheduled.length > 0, "configured-fault-incomplete", `${path}scheduled_occurrences`);
    checkSchedule(scheduled, completed, trigger.completed, path, "completed", v);
  } else if (trigger.kind === "seeded_probability") {
    checkProbability(trigger, operationsObserved, exempt, v, path);
  }
}

function checkProbability(
  trigger: ReportSeededProbabilityTrigger,
  operationsObserved: number,
  exempt: boolean,
  v: Violations,
  path: string,
): void {
  const millionths = probabilityMillionths(trigger.probability);
  v.check(millionths !== null, "probability-invalid", `${path}probability`);
  const seedValid = trigger.seed >= 0n && trigger.seed <= MAX_SEED;
  v.check(seedValid, "seed-out-of-range", `${path}seed`);
  const { start_occurrence: start, end_occurrence: end } = trigger.window;
  const windowValid = start >= 1 && end >= start;
  v.check(windowValid, "window-invalid", `${path}window`);
  if (!windowValid) return;

  const size = end - start + 1;
  const evaluated = trigger.evaluated_occurrences;
  // Evaluations count observed operations, so they can exceed neither the window nor the
  // operations; past the verification limit they are refused rather than enumerated.
  const evaluatedValid =
    evaluated >= 0 &&
    evaluated <= size &&
    evaluated <= operationsObserved &&
    evaluated <= REPORT_LIMITS.maxVerifiedEvaluations;
  v.check(evaluatedValid, "evaluated-out-of-range", `${path}evaluated_occurrences`);
  if (!evaluatedValid) return;

  v.check(trigger.completed === (evaluated === size), "completed-flag-contradicts", `${path}completed`);
  const lastEvaluated = start + evaluated - 1;
  const selected = trigger.selected_occurrences;
  const inside =
    isStrictlyIncreasingPositive(selected) && selected.every((k) => k >= start && k <= lastEvaluated);
  v.check(inside, "selected-outside-evaluated", `${path}selected_occurrences`);
  if (!inside || millionths === null || !seedValid || exempt) return;

  const expected = selectedOccurrences(trigger.seed, millionths, start, lastEvaluated);
  v.check(sameList(selected, expected), "selection-contradicts-selector", `${path}selected_occurrences`);
}
