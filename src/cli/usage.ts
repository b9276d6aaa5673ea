import { type CliIo, EXIT } from "../support/cli-io.js";
import { terminalSafe } from "../support/terminal-text.js";

/** Prints a one-line usage error and returns exit code 2. */
export function usageError(io: CliIo, message: string): number {
  io.stderr.write(`Error: ${terminalSafe(message)}\nRun 'agentchaos --help' for usage.\n`);
  return EXIT.USAGE;
}
