/**
 * The library's `runTrials`: `agentchaos run <scenario> --trials N` without the terminal (the
 * command is a thin shell over the same engine).
 */

import { type RunTrialsOptions, type TrialsDone, trials } from "../trials/run-trials.js";
import { type ScenarioInput, scenarioOf } from "./scenario-input.js";

export type { RunTrialsOptions, TrialsDone };

/**
 * Runs a scenario `options.trials` times exactly as `agentchaos run --trials` does, printing
 * nothing: every trial a complete run in its own run folder, `jobs` at a time, into one trials
 * folder with `trials.json`. `scenario` is a file path (relative to the process's working
 * directory) or a scenario from `loadScenario`. Returns the trials.json document, the folder,
 * the files written and the exit code the command would exit with (0 when the pass rate reaches
 * `minPassRate`, 1 below it, 3 every trial a setup error, 130 interrupted). Throws
 * `ScenarioError` (invalid or unsupported scenario), `TrialsError` (an option out of range) or
 * `RunFolderError` (no trials folder), before anything runs.
 */
export async function runTrials(scenario: ScenarioInput, options: RunTrialsOptions): Promise<TrialsDone> {
  const loaded = await scenarioOf(scenario);
  return trials(loaded, { ...options, cwd: process.cwd() });
}
