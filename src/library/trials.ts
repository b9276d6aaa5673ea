/**
 * The library's `runTrials`: `agentchaos run <scenario> --trials N` without the terminal (the
 * command is a thin shell over the same engine).
 */

import type { LegacyScenario } from "../scenario/legacy/types.js";
import { toRunScenario } from "../scenario/legacy/upgrade.js";
import { loadScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";
import { type RunTrialsOptions, type TrialsDone, trials } from "../trials/run-trials.js";

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
export async function runTrials(
  scenario: string | AnyScenario | LegacyScenario,
  options: RunTrialsOptions,
): Promise<TrialsDone> {
  const loaded = typeof scenario === "string" ? await loadScenario(scenario) : toRunScenario(scenario);
  return trials(loaded, { ...options, cwd: process.cwd() });
}
