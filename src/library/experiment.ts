/**
 * The library's `runExperiment`: one experiment exactly as `agentchaos run` performs it, plus the
 * optional reporter files.
 */
import { resolve } from "node:path";
import type { AnyAgentChaosEvent } from "../events/types.js";
import type { ReporterName } from "../reporters/names.js";
import { DEFAULT_RUNS_DIR, type ExperimentResult, experiment } from "../runtime/experiment.js";
import { liveOutput } from "../runtime/live-output.js";
import { type ScenarioInput, scenarioOf } from "./scenario-input.js";

export type { ExperimentResult };

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
}

/**
 * Runs one experiment, exactly as `agentchaos run` does. `scenario` is a scenario file's path
 * (relative to the process cwd) or a scenario returned by `loadScenario`. Throws a
 * `ScenarioError` for an invalid scenario (nothing is started or written) and a
 * `RunFolderError` when no run folder can be made.
 */
export async function runExperiment(
  scenario: ScenarioInput,
  options: RunExperimentOptions = {},
): Promise<ExperimentResult> {
  const loaded = await scenarioOf(scenario);
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
