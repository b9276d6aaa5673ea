import { resolve } from "node:path";
import { formatScenarioError, ScenarioError } from "../../scenario/errors.js";
import { loadScenario } from "../../scenario/load.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";

/** `agentchaos validate <scenario>`: checks the file, starts nothing. */
export async function validateCommand(path: string, io: CliIo): Promise<number> {
  try {
    const scenario = await loadScenario(resolve(io.cwd, path));
    io.stdout.write(`Valid scenario: ${terminalSafe(scenario.name)}\n`);
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    io.stderr.write(`Invalid scenario: ${formatScenarioError(error, path)}\n`);
    return EXIT.USAGE;
  }
}
