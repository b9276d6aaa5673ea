/**
 * The library's `runExperiment`: one experiment exactly as `agentchaos run` performs it, plus the
 * optional reporter files.
 */
import { resolve } from "node:path";
import type { AnyAgentChaosEvent } from "../events/types.js";
import type { ReporterName } from "../reporters/names.js";
import { DEFAULT_RUNS_DIR, type ExperimentResult, experiment } from "../runtime/experiment.js";
import { liveOutput } from "../terminal/live-output.js";
import { trialSettings } from "../trials/options.js";
import { experimentTrials, type TrialsExperimentResult } from "./experiment-trials.js";
import { type ScenarioInput, scenarioOf } from "./scenario-input.js";

export type { ExperimentResult, TrialsExperimentResult };

export interface RunExperimentOptions {
  /** Where the run folder is created, with parents (default `.agentchaos/runs`, relative to the process cwd). */
  readonly outputDir?: string;
  /** Aborting it stops the experiment like SIGINT: everything is stopped, the run folder completed, exit code 130. */
  readonly signal?: AbortSignal;
  /** Called with each event as it is recorded. */
  readonly onEvent?: (event: AnyAgentChaosEvent) => void;
  /** `false` prints what `agentchaos run` prints to the process's stdout; by default nothing is printed. */
  readonly quiet?: boolean;
  /** Reporter files written into the run folder (`html` → report.html, `junit` → junit.xml, `ctrf` → ctrf.json). */
  readonly reporters?: readonly ReporterName[];
  /**
   * Runs of the experiment, 1 to 100 (default 1: one run, exactly as without it). Above 1, the
   * series of `agentchaos run --trials N` runs, into one trials folder (docs/trials.md); it
   * prints nothing and calls no `onEvent`.
   */
  readonly trials?: number;
  /** With trials: the pass rate the series must reach, 0 to 1 (default 1). */
  readonly minPassRate?: number;
  /** With trials: trials at once (default: the number of CPUs). */
  readonly jobs?: number;
}

/**
 * Runs one experiment, exactly as `agentchaos run` does. `scenario` is a scenario file's path
 * (relative to the process cwd) or a scenario returned by `loadScenario`. Throws a
 * `ScenarioError` for an invalid scenario (nothing is started or written), a `RunFolderError`
 * when no run folder can be made and a `TrialsError` for trial options out of range. With
 * `trials` above 1 it runs the series and resolves to a `TrialsExperimentResult`.
 */
export async function runExperiment(
  scenario: ScenarioInput,
  options?: RunExperimentOptions & { readonly trials?: 1 },
): Promise<ExperimentResult>;
export async function runExperiment(
  scenario: ScenarioInput,
  options: RunExperimentOptions,
): Promise<ExperimentResult | TrialsExperimentResult>;
export async function runExperiment(
  scenario: ScenarioInput,
  options: RunExperimentOptions = {},
): Promise<ExperimentResult | TrialsExperimentResult> {
  // Checked before anything is loaded or runs, as `run --trials` checks its flags.
  const { trials: count } = trialSettings(options);
  const loaded = await scenarioOf(scenario);
  if (count > 1) return experimentTrials(loaded, { ...options, trials: count });
  const done = await experiment(loaded, {
    outputDir: resolve(options.outputDir ?? DEFAULT_RUNS_DIR),
    ...(options.signal === undefined ? {} : { interrupt: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.quiet === false
      ? { output: liveOutput(loaded, { stream: process.stdout, env: process.env }) }
      : {}),
    ...(options.reporters === undefined ? {} : { reporters: options.reporters }),
  });
  return {
    result: done.result,
    reasonCode: done.reasonCode,
    exitCode: done.exitCode,
    report: done.report,
    runFolder: done.runFolder,
  };
}
