/**
 * Reading the scenario a command was given, the same way for every command: a folder without a
 * scenario file and a scenario that does not load are each one `Invalid scenario:` line on
 * stderr and the usage exit code.
 */
import { formatScenarioError, ScenarioError } from "../scenario/errors.js";
import { loadScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";
import { type CliIo, EXIT } from "../support/cli-io.js";
import { terminalSafe } from "../support/terminal-text.js";
import { NO_SCENARIO_IN_FOLDER } from "./scenario-path.js";

/** A folder with no scenario file was named (`shown`, as typed): says so, returns the exit code. */
export function emptyFolderExit(io: CliIo, shown: string): number {
  io.stderr.write(`Invalid scenario: ${terminalSafe(shown)}: ${NO_SCENARIO_IN_FOLDER}\n`);
  return EXIT.USAGE;
}

/** The scenario at `absolute`, or the exit code once its problem was written (named `shown`). */
export async function loadScenarioOrExit(
  io: CliIo,
  absolute: string,
  shown: string,
): Promise<AnyScenario | number> {
  try {
    return await loadScenario(absolute);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    io.stderr.write(`Invalid scenario: ${formatScenarioError(error, shown)}\n`);
    return EXIT.USAGE;
  }
}

/** The CLI's interruption signals as the engines (suite, trials, explore) take them. */
export function engineSignals(io: CliIo): { signal?: AbortSignal; forceStop?: AbortSignal } {
  return {
    ...(io.interrupt === undefined ? {} : { signal: io.interrupt }),
    ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
  };
}
