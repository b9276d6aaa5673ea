/**
 * A suite run with trials (see docs/trials.md): every runnable scenario becomes a series of N
 * trials, all of them scheduled together (scenario by scenario, `jobs` at a time, fixed ports
 * kept apart); each series gets a trials folder in the suite folder with its run folders and
 * `trials.json`, and — once all its trials have finished — one suite entry: PASSED or FAILED by
 * the minimum pass rate, the class as its reason, the summary as its `trials` object.
 */
import type { SuiteEntry } from "../report/suite-document.js";
import { summarizeTrials, type TrialRun, trialsVerdict } from "../report/trials.js";
import type { RunManySettings } from "../runtime/finished-run.js";
import { createRunFolder } from "../runtime/run-folder.js";
import { runFiledSeries, seriesRunsFrom } from "../trials/series-files.js";
import type { Plan } from "./prepare.js";

type RunnablePlan = Plan & { readonly kind: "runnable" };

/**
 * A suite entry for a series' trials: PASSED or FAILED by the minimum pass rate, the class as
 * its reason, the summary as its `trials` object.
 */
export function seriesEntry(
  scenario: Pick<SuiteEntry, "path" | "name" | "duration_ms" | "run_folder">,
  runs: readonly TrialRun[],
  minPassRate: number,
): SuiteEntry {
  const summary = summarizeTrials(runs);
  const verdict = trialsVerdict(summary, minPassRate, false);
  return {
    path: scenario.path,
    name: scenario.name,
    result: verdict.passes ? "PASSED" : "FAILED",
    reason_code: summary.class,
    exit_code: verdict.exitCode,
    duration_ms: scenario.duration_ms,
    run_folder: scenario.run_folder,
    trials: { ...summary, min_pass_rate: minPassRate },
  };
}

export interface TrialPlansSettings extends RunManySettings {
  /** The suite folder (absolute): a trials folder per scenario is made in it. */
  readonly folder: string;
  readonly count: number;
  readonly minPassRate: number;
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
  await runFiledSeries(
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
      ...settings,
      scenarioOf: (plan) => ({ path: plan.file.path, name: plan.name }),
      onSeries: (plan, done) => {
        // Trial run folders relative to the suite folder.
        const { folder, runs } = seriesRunsFrom(done, settings.folder);
        const duration = runs.reduce((sum, run) => sum + run.duration_ms, 0);
        const scenario = { path: plan.file.path, name: plan.name, duration_ms: duration, run_folder: folder };
        settings.onEntry(seriesEntry(scenario, runs, settings.minPassRate));
      },
    },
  );
}
