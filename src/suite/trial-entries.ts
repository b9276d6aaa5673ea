/**
 * A suite run with trials (see docs/trials.md): every runnable scenario becomes a series of N
 * trials, all of them scheduled together (scenario by scenario, `jobs` at a time, fixed ports
 * kept apart); each series gets a trials folder in the suite folder with its run folders and
 * `trials.json`, and — once all its trials have finished — one suite entry: PASSED or FAILED by
 * the minimum pass rate, the class as its reason, the summary as its `trials` object.
 */
import { relative } from "node:path";
import type { SuiteEntry } from "../report/suite-document.js";
import { summarizeTrials, type TrialRun, trialsVerdict } from "../report/trials.js";
import type { ReporterName } from "../reporters/names.js";
import { createRunFolder } from "../runtime/run-folder.js";
import { writeSeriesFile } from "../trials/document.js";
import { runSeries, type SeriesDone } from "../trials/series.js";
import type { Plan } from "./prepare.js";

type RunnablePlan = Plan & { readonly kind: "runnable" };

/** `path` relative to `from`, with `/` separators (`.` for the same folder). */
function relativePath(from: string, path: string): string {
  return relative(from, path).split("\\").join("/") || ".";
}

/** The suite entry of a series; trial run folders relative to the suite folder. */
export function trialsEntry(
  plan: RunnablePlan,
  done: SeriesDone,
  suiteFolder: string,
  minPassRate: number,
): SuiteEntry {
  const base = done.folder === null ? null : relativePath(suiteFolder, done.folder);
  const runs = done.runs.map(
    (run): TrialRun => ({
      ...run,
      run_folder: run.run_folder === null || base === null ? null : `${base}/${run.run_folder}`,
    }),
  );
  const summary = summarizeTrials(runs);
  const verdict = trialsVerdict(summary, minPassRate, false);
  return {
    path: plan.file.path,
    name: plan.name,
    result: verdict.passes ? "PASSED" : "FAILED",
    reason_code: summary.class,
    exit_code: verdict.exitCode,
    duration_ms: runs.reduce((sum, run) => sum + run.duration_ms, 0),
    run_folder: base,
    trials: { ...summary, min_pass_rate: minPassRate },
  };
}

export interface TrialPlansSettings {
  /** The suite folder (absolute): a trials folder per scenario is made in it. */
  readonly folder: string;
  readonly count: number;
  readonly minPassRate: number;
  readonly jobs: number;
  readonly interrupt?: AbortSignal;
  readonly forceStop?: AbortSignal;
  readonly reporters: readonly ReporterName[];
  readonly stopped: () => boolean;
  /** A scenario's first trial is starting. */
  readonly onStarted: (plan: RunnablePlan) => void;
  readonly onTrial?: (plan: RunnablePlan, run: TrialRun) => void;
  /** A scenario whose trials have all finished. */
  readonly onEntry: (entry: SuiteEntry) => void;
}

/**
 * Runs the plans' series. Each series' trials.json is written as it completes; a series cut
 * short (interruption, fail-fast) keeps its finished trials in its trials.json, without an entry.
 */
export async function runTrialPlans(
  plans: readonly RunnablePlan[],
  settings: TrialPlansSettings,
): Promise<void> {
  const writeErrors: unknown[] = [];
  const writeFile = async (plan: RunnablePlan, done: SeriesDone, interrupted: boolean): Promise<void> => {
    const scenario = { path: plan.file.path, name: plan.name };
    await writeSeriesFile(done, scenario, settings.minPassRate, interrupted).catch((error: unknown) => {
      writeErrors.push(error);
    });
  };
  const results = await runSeries(
    plans.map((plan) => ({
      key: plan,
      scenario: plan.scenario,
      count: settings.count,
      folder: async () => {
        settings.onStarted(plan);
        return (await createRunFolder(settings.folder)).runDir;
      },
    })),
    {
      jobs: settings.jobs,
      ...(settings.interrupt === undefined ? {} : { interrupt: settings.interrupt }),
      ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
      reporters: settings.reporters,
      stopped: settings.stopped,
      ...(settings.onTrial === undefined ? {} : { onTrial: settings.onTrial }),
      onSeries: async (plan, done) => {
        settings.onEntry(trialsEntry(plan, done, settings.folder, settings.minPassRate));
        await writeFile(plan, done, false);
      },
    },
  );
  for (const [plan, done] of results) {
    if (!done.complete && done.runs.length > 0)
      await writeFile(plan, done, settings.interrupt?.aborted === true);
  }
  // A trials.json that could not be written fails the suite like its own files do.
  if (writeErrors.length > 0) throw writeErrors[0];
}
