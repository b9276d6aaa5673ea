/**
 * The library's `exploreScenario`: `agentchaos explore` without the terminal (the command is a
 * thin shell over the same engine).
 */
import { type ExploreDone, type ExploreOptions, explore } from "../explore/run-explore.js";
import type { LegacyScenario } from "../scenario/legacy/types.js";
import { toRunScenario } from "../scenario/legacy/upgrade.js";
import { loadScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";

export type { ExploreDone, ExploreOptions };

/**
 * Explores a scenario exactly as `agentchaos explore` does, printing nothing. `scenario` is a
 * file path (relative to the process's working directory) or a scenario from `loadScenario`.
 * Returns the explore.json document, the explore folder, the files written and the exit code the
 * command would exit with. Throws `ScenarioError` (invalid scenario) or `ExploreError` (bad menu or
 * option, unconvertible or unsupported scenario, output folder), before anything runs.
 */
export async function exploreScenario(
  scenario: string | AnyScenario | LegacyScenario,
  options: ExploreOptions = {},
): Promise<ExploreDone> {
  const loaded = typeof scenario === "string" ? await loadScenario(scenario) : toRunScenario(scenario);
  return explore(loaded, { ...options, cwd: process.cwd() });
}
