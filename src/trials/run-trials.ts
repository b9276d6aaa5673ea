/**
 * `agentchaos run <scenario> --trials N` (see docs/trials.md): N complete runs of one scenario
 * in parallel under `jobs`, into one trials folder `<outputDir>/<trials-id>/` holding only the
 * run folders and `trials.json`. The command and the library's `runTrials` are thin shells over
 * `trials()` below.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import type { TrialRun } from "../report/trials.js";
import type { ReporterName } from "../reporters/names.js";
import { DEFAULT_RUNS_DIR } from "../runtime/experiment.js";
import { createRunFolder } from "../runtime/run-folder.js";
import { unsupportedFeature } from "../runtime/support.js";
import { ScenarioError } from "../scenario/errors.js";
import type { AnyScenario } from "../scenario/parse.js";
import { slashRelative } from "../support/slash-path.js";
import { type TrialsDocument, trialsDocument, writeTrialsFile } from "./document.js";
import { TrialsError, trialSettings } from "./options.js";
import { runSeries } from "./series.js";

export interface RunTrialsOptions {
  /** Trials to run, 1 to 100. */
  readonly trials: number;
  /** Trials at once (default: the number of CPUs, at least 1). */
  readonly jobs?: number;
  /** 0 to 1 (default 1): below it the series fails. */
  readonly minPassRate?: number;
  /** Where the trials folder is made (default `.agentchaos/runs`, relative to the working directory). */
  readonly outputDir?: string;
  /** Reporter files written into each trial's run folder. */
  readonly reporters?: readonly ReporterName[];
  /** Aborting it stops the series like SIGINT: running trials are stopped, finished ones kept. */
  readonly signal?: AbortSignal;
  /** Each finished trial, in completion order. */
  readonly onTrial?: (run: TrialRun, progress: { readonly done: number; readonly total: number }) => void;
}

export interface TrialsSettings extends RunTrialsOptions {
  /** Absolute; the scenario's `path` and the output folder resolve against it. */
  readonly cwd: string;
  readonly forceStop?: AbortSignal;
  /** Once the trials folder exists, before any trial starts. */
  readonly onStart?: (info: {
    readonly folder: string;
    readonly trials: number;
    readonly jobs: number;
  }) => void;
}

export interface TrialsDone {
  readonly document: TrialsDocument;
  /** Absolute trials folder. */
  readonly folder: string;
  /** Absolute paths written: trials.json. */
  readonly written: readonly string[];
  /** 0 the pass rate reaches the minimum, 1 it does not, 3 every trial was a setup error, 130 interrupted. */
  readonly exitCode: number;
}

/** A positive whole number of jobs, default the number of CPUs. */
export function jobsOf(jobs: number | undefined): number {
  if (jobs === undefined) return Math.max(1, availableParallelism());
  if (!Number.isSafeInteger(jobs) || jobs < 1) throw new TrialsError("jobs must be a positive integer");
  return jobs;
}

/** The trials engine: runs the series, writes trials.json, returns it with the exit code. */
export async function trials(scenario: AnyScenario, settings: TrialsSettings): Promise<TrialsDone> {
  const { trials: count, minPassRate } = trialSettings(settings);
  const jobs = jobsOf(settings.jobs);
  const unsupported = unsupportedFeature(scenario);
  if (unsupported !== null) throw new ScenarioError("SCENARIO_UNSUPPORTED", unsupported);
  const { runDir: folder } = await createRunFolder(
    resolve(settings.cwd, settings.outputDir ?? DEFAULT_RUNS_DIR),
  );
  settings.onStart?.({ folder, trials: count, jobs });
  const startedAt = new Date().toISOString();
  const signal = settings.signal;
  let finished = 0;
  const results = await runSeries([{ key: 0, scenario, count, folder: async () => folder }], {
    jobs,
    ...(signal === undefined ? {} : { interrupt: signal }),
    ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
    reporters: settings.reporters ?? [],
    onTrial: (_key, run) => {
      finished += 1;
      settings.onTrial?.(run, { done: finished, total: count });
    },
  });
  const { document, verdict } = trialsDocument({
    scenario: {
      path: slashRelative(settings.cwd, scenario.sourcePath),
      name: scenario.name,
    },
    runs: results.get(0)?.runs ?? [],
    requested: count,
    minPassRate,
    interrupted: signal?.aborted === true,
    startedAt,
  });
  const written = [await writeTrialsFile(folder, document)];
  return { document, folder, written, exitCode: verdict.exitCode };
}
