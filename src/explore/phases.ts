/**
 * Running a phase of explore's experiments (see docs/explore.md): each experiment once, then
 * every failure once more to confirm it — or, with trials (see docs/trials.md), each experiment
 * N times as a series in its own trials folder, the trials taking the confirmation's place.
 */

import { join } from "node:path";
import { summarizeTrials } from "../report/trials.js";
import { createRunFolder } from "../runtime/run-folder.js";
import { runFiledSeries, seriesRunsFrom } from "../trials/series-files.js";
import type { ExploreProgress } from "./progress.js";
import { experimentRecord, isFailure, type PlannedExperiment, seriesRun } from "./records.js";
import { type Job, type RunSettings, runAll } from "./runner.js";

export interface PhaseContext {
  readonly runSettings: RunSettings;
  readonly jobOf: (experiment: PlannedExperiment) => Job;
  readonly progress: (event: ExploreProgress) => void;
  /** Trials per experiment; 1 runs each once (and confirms failures). */
  readonly trials: number;
  readonly minPassRate: number;
  /** The scenario as trials.json names it. */
  readonly scenario: { readonly path: string; readonly name: string };
  /** Milliseconds, for the estimated time left. */
  readonly now: () => number;
  /** After the runs, before confirmations: marks the experiments that were not applicable. */
  readonly settle?: (list: readonly PlannedExperiment[]) => Promise<void>;
}

/** Runs a phase's experiments, then (without trials) confirms its failures. */
export async function runPhase(
  list: PlannedExperiment[],
  phase: "depth_1" | "depth_2",
  context: PhaseContext,
): Promise<void> {
  const started = context.now();
  let done = 0;
  const finished = (experiment: PlannedExperiment): void => {
    done += 1;
    const eta =
      done === list.length ? 0 : Math.round(((context.now() - started) / done) * (list.length - done));
    context.progress({
      kind: "experiment",
      phase,
      trial: experimentRecord(experiment, null),
      done,
      total: list.length,
      etaMs: eta,
    });
  };
  context.progress({ kind: "phase", phase, total: list.length });
  if (context.trials > 1) {
    await runTrials(list, context, finished);
    await context.settle?.(list);
    return;
  }
  await runAll(list, context.jobOf, context.runSettings, (experiment, run) => {
    experiment.run = run.run;
    experiment.runFolder = run.runFolder;
    finished(experiment);
  });
  await context.settle?.(list);
  if (context.runSettings.interrupt?.aborted !== true) await confirm(list, context);
}

/** Every failure of the list run once more. */
async function confirm(list: PlannedExperiment[], context: PhaseContext): Promise<void> {
  const failed = list.filter(isFailure);
  if (failed.length === 0) return;
  let done = 0;
  context.progress({ kind: "phase", phase: "confirm", total: failed.length });
  await runAll(failed, context.jobOf, context.runSettings, (experiment, run) => {
    experiment.confirmation = run.run;
    done += 1;
    context.progress({
      kind: "confirmation",
      trial: experimentRecord(experiment, null),
      done,
      total: failed.length,
    });
  });
}

/** The series of each experiment; trials.json written into each trials folder. */
async function runTrials(
  list: PlannedExperiment[],
  context: PhaseContext,
  finished: (experiment: PlannedExperiment) => void,
): Promise<void> {
  const { runSettings } = context;
  const explore = runSettings.folder;
  await runFiledSeries(
    list.map((experiment) => {
      const job = context.jobOf(experiment);
      return {
        key: experiment,
        scenario: job.scenario,
        scenarioText: job.text,
        count: context.trials,
        folder: async () => (await createRunFolder(explore)).runDir,
      };
    }),
    {
      ...runSettings,
      minPassRate: context.minPassRate,
      scenarioOf: () => context.scenario,
      onSeries: (experiment, done) => {
        const { folder, runs } = seriesRunsFrom(done, explore);
        const trials = { ...summarizeTrials(runs), min_pass_rate: context.minPassRate };
        const run = seriesRun(trials, context.minPassRate, folder);
        const shown = trials.runs.find((entry) => (entry.result === "FAILED") === (run.result === "FAILED"));
        experiment.trials = trials;
        experiment.run = run;
        experiment.runFolder =
          shown?.run_folder === null || shown === undefined ? null : join(explore, shown.run_folder);
        finished(experiment);
      },
    },
  );
}
