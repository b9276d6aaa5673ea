/**
 * The library's `exploreScenario`: `agentchaos explore` without the terminal (the command is a
 * thin shell over the same engine).
 */
import { type ExploreDone, type ExploreOptions, explore } from "../explore/run-explore.js";
import { type ScenarioInput, scenarioOf } from "./scenario-input.js";

export type { ExploreDone, ExploreOptions };

/**
 * Explores a scenario exactly as `agentchaos explore` does, printing nothing. `scenario` is a
 * file path (relative to the process's working directory) or a scenario from `loadScenario`.
 * Returns the explore.json document, the explore folder, the files written and the exit code the
 * command would exit with. Throws `ScenarioError` (invalid scenario) or `ExploreError` (bad menu or
 * option, unconvertible or unsupported scenario, output folder), before anything runs.
 */
export async function exploreScenario(
  scenario: ScenarioInput,
  options: ExploreOptions = {},
): Promise<ExploreDone> {
  const loaded = await scenarioOf(scenario);
  return explore(loaded, { ...options, cwd: process.cwd() });
}
