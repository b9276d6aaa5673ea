/**
 * Running a phase of explore's experiments (see docs/explore.md): each experiment once, then
 * every failure once more to confirm it — or, with trials (see docs/trials.md), each experiment
 * N times as a series in its own trials folder, the trials taking the confirmation's place.
 */

import { join, relative } from "node:path";
import { isReplayMismatch } from "../report/exit-code.js";
import { summarizeTrials, type TrialsRecord } from "../report/trials.js";
import { createRunFolder } from "../runtime/run-folder.js";
import { writeSeriesFile } from "../trials/document.js";
import { runSeries, type SeriesDone } from "../trials/series.js";
import type { ExploreProgress } from "./progress.js";
import { experimentRecord, type PlannedExperiment, seriesRun } from "./records.js";
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
  const failed = list.filter(
    (experiment) =>
      experiment.run?.result === "FAILED" &&
      !isReplayMismatch(experiment.run) &&
      experiment.notApplicable !== true,
  );
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
  const record = (done: SeriesDone): TrialsRecord => {
    const base = folderOf(done, explore);
    const runs = done.runs.map((run) => ({
      ...run,
      run_folder: run.run_folder === null || base === null ? null : `${base}/${run.run_folder}`,
    }));
    return { ...summarizeTrials(runs), min_pass_rate: context.minPassRate };
  };
  const writes: Promise<unknown>[] = [];
  const writeErrors: unknown[] = [];
  const write = (done: SeriesDone, interrupted: boolean): void => {
    writes.push(
      writeSeriesFile(done, context.scenario, context.minPassRate, interrupted).catch((error: unknown) => {
        writeErrors.push(error);
      }),
    );
  };
  const results = await runSeries(
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
      jobs: runSettings.jobs,
      ...(runSettings.interrupt === undefined ? {} : { interrupt: runSettings.interrupt }),
      ...(runSettings.forceStop === undefined ? {} : { forceStop: runSettings.forceStop }),
      reporters: runSettings.reporters,
      onSeries: (experiment, done) => {
        const trials = record(done);
        const run = seriesRun(trials, context.minPassRate, folderOf(done, explore));
        const shown = trials.runs.find((entry) => (entry.result === "FAILED") === (run.result === "FAILED"));
        experiment.trials = trials;
        experiment.run = run;
        experiment.runFolder =
          shown?.run_folder === null || shown === undefined ? null : join(explore, shown.run_folder);
        write(done, false);
        finished(experiment);
      },
    },
  );
  for (const done of results.values()) {
    if (!done.complete && done.runs.length > 0) {
      write(done, runSettings.interrupt?.aborted === true);
    }
  }
  await Promise.all(writes);
  // A trials.json that could not be written fails the explore like its own files do.
  if (writeErrors.length > 0) throw writeErrors[0];
}

/** The series' trials folder relative to the explore folder. */
function folderOf(done: SeriesDone, explore: string): string | null {
  return done.folder === null ? null : relative(explore, done.folder).split("\\").join("/");
}
