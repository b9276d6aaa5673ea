import { formatScenarioError, ScenarioError } from "../../scenario/errors.js";
import { loadScenario } from "../../scenario/load.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";
import { emptyFolderExit } from "../scenario-input.js";
import { scenarioPath } from "../scenario-path.js";

/** `agentchaos validate <scenario>`: checks the file, starts nothing. */
export async function validateCommand(argument: string, io: CliIo): Promise<number> {
  const named = await scenarioPath(argument, io.cwd);
  const path = named.shown;
  if (named.emptyFolder) return emptyFolderExit(io, path);
  try {
    const scenario = await loadScenario(named.absolute);
    if (scenario.dependencies.some((d) => d.replay !== undefined)) {
      const { checkCassettes } = await import("../../replay/scenario-cassettes.js");
      const checked = await checkCassettes(scenario.dependencies, scenario.sourcePath, path);
      if (checked.error !== null) {
        io.stderr.write(`Invalid cassette: ${terminalSafe(checked.error.message)}\n`);
        return EXIT.USAGE;
      }
      io.stdout.write(`Valid scenario: ${terminalSafe(scenario.name)}\n`);
      for (const note of checked.notes) io.stdout.write(`${terminalSafe(note)}\n`);
      return EXIT.OK;
    }
    io.stdout.write(`Valid scenario: ${terminalSafe(scenario.name)}\n`);
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    io.stderr.write(`Invalid scenario: ${formatScenarioError(error, path)}\n`);
    return EXIT.USAGE;
  }
}
