/**
 * The records explore.json is made of: an experiment while it runs (its plan, its run or its
 * trials, its confirmation) and its record; the injection points, run and skipped. Pure.
 */

import { isReplayMismatch } from "../report/exit-code.js";
import type { ExperimentRecord, RunRecord } from "../report/explore-document.js";
import { type TrialsRecord, type TrialsSummary, trialPassed, trialsVerdict } from "../report/trials.js";
import type { Scenario } from "../scenario/types.js";
import type { Candidate } from "./plan.js";
import { plannedFault } from "./plan.js";
import { type InjectionPoint, pointLabel, type SkippedPoint } from "./points.js";
import { faultData } from "./scenario-text.js";

/** An experiment while it is being run: its plan, its run (or its trials' sum), its confirmation. */
export interface PlannedExperiment {
  readonly id: string;
  readonly candidate: Candidate;
  readonly scenario: Scenario;
  run: RunRecord | null;
  /** An absolute run folder whose events show the experiment passing or failing as `run` says. */
  runFolder: string | null;
  confirmation: RunRecord | null;
  /** With trials: the series, once all its trials finished. */
  trials: TrialsRecord | null;
  /** Set when its run showed the fault cannot act at the point (extended-menu.ts): not recorded. */
  notApplicable?: boolean;
}

/** Where a point is, as explore.json writes it for injection points and skipped points alike. */
function placeRecord(point: InjectionPoint | SkippedPoint) {
  return {
    label: pointLabel(point),
    dependency: point.dependency,
    protocol: point.protocol,
    method: point.method,
    path: point.path,
    k: point.k,
  };
}

export function pointRecord(point: InjectionPoint, menu: readonly string[]) {
  return { id: point.id, ...placeRecord(point), relayed_events: point.relayedEvents, menu };
}

export function skippedRecord(point: SkippedPoint) {
  return { ...placeRecord(point), reason: point.reason, seen_in_runs: point.seenInRuns };
}

/** Drops the holes a partly finished baseline leaves (runs are kept in their order). */
export function compact(runs: RunRecord[]): void {
  const kept = runs.filter((run) => run !== undefined);
  runs.length = 0;
  runs.push(...kept);
}

/**
 * A series summed up as one run: FAILED below the minimum pass rate with the most frequent
 * failing reason, else the most frequent passing result and reason; durations summed; the
 * trials folder as run folder.
 */
export function seriesRun(
  summary: TrialsSummary,
  minPassRate: number,
  trialsFolder: string | null,
): RunRecord {
  const verdict = trialsVerdict(summary, minPassRate, false);
  const main = summary.outcomes.find((outcome) => trialPassed(outcome) === verdict.passes);
  return {
    result: verdict.passes ? (main?.result ?? "PASSED") : "FAILED",
    reason_code: main?.reason_code ?? summary.class,
    exit_code: verdict.exitCode,
    duration_ms: summary.runs.reduce((sum, run) => sum + run.duration_ms, 0),
    run_folder: trialsFolder,
  };
}

/** A failed run that may count as the agent's failure: not a replay mismatch, not a fault that could not act. */
export function isFailure(experiment: PlannedExperiment): boolean {
  const run = experiment.run;
  return run?.result === "FAILED" && !isReplayMismatch(run) && experiment.notApplicable !== true;
}

/** A failure not counted as one: its confirmation did not fail, or its trials were flaky yet enough passed. */
export function isFlaky(experiment: PlannedExperiment): boolean {
  if (experiment.trials !== null) {
    return experiment.trials.class === "flaky" && experiment.run?.result !== "FAILED";
  }
  return (
    experiment.run?.result === "FAILED" &&
    experiment.confirmation !== null &&
    experiment.confirmation.result !== "FAILED"
  );
}

export function experimentRecord(experiment: PlannedExperiment, replay: string | null): ExperimentRecord {
  const run = experiment.run as RunRecord;
  return {
    id: experiment.id,
    depth: experiment.candidate.depth,
    label: experiment.candidate.key,
    faults: experiment.candidate.faults.map((planned) => ({
      point: planned.point.id,
      menu: planned.entry.id,
      fault: faultData(plannedFault(planned)),
    })),
    result: run.result,
    reason_code: run.reason_code,
    exit_code: run.exit_code,
    duration_ms: run.duration_ms,
    run_folder: run.run_folder,
    ...(run.verify === undefined ? {} : { verify: run.verify }),
    flaky: isFlaky(experiment),
    confirmation: experiment.confirmation,
    replay,
    ...(experiment.trials === null ? {} : { trials: experiment.trials }),
  };
}

/** What a failure's replay says was observed. */
export function observedText(experiment: PlannedExperiment): string {
  const run = experiment.run;
  const trials = experiment.trials;
  if (trials !== null) {
    return `${run?.result} / ${run?.reason_code} in ${trials.trials - trials.passed} of ${trials.trials} trials (${trials.class}, pass rate ${trials.pass_rate.toFixed(2)}, minimum ${trials.min_pass_rate})`;
  }
  return `${run?.result} / ${run?.reason_code}${experiment.confirmation === null ? "" : " (confirmed by a second run)"}`;
}
