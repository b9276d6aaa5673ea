/**
 * The one way `run`, `record` and `run --trials` report a run that could not be carried out: the
 * message and the exit code (docs/cli.md, exit codes). Anything else is not theirs to explain and
 * is thrown.
 */
import { RunIoError } from "../../runtime/run-abort.js";
import { RunFolderError } from "../../runtime/run-folder.js";
import { ScenarioError } from "../../scenario/errors.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";
import { OutputWriteError } from "../../support/write-file.js";

/** What the messages name: what could not be started, what could not be written. */
export interface RunFailureWords {
  readonly started: string;
  readonly written: string;
}

const ONE_RUN: RunFailureWords = { started: "experiment", written: "reports" };

export function runFailureExit(
  io: CliIo,
  path: string,
  error: unknown,
  words: RunFailureWords = ONE_RUN,
): number {
  if (error instanceof ScenarioError) {
    io.stderr.write(`Cannot run scenario: ${terminalSafe(path)}: ${error.detail}\n`);
    return EXIT.USAGE;
  }
  if (error instanceof RunFolderError) {
    io.stderr.write(`Cannot start ${words.started}: ${error.message}\n`);
    return EXIT.SETUP;
  }
  if (error instanceof OutputWriteError) {
    io.stderr.write(`Cannot write ${words.written}: ${error.message}\n`);
    return EXIT.SETUP;
  }
  if (error instanceof RunIoError) {
    const folder = terminalSafe(error.runDir);
    io.stderr.write(
      `Run failed: ${error.message}. Every process was stopped; the events recorded until then are in ${folder}/events.jsonl (read them with: agentchaos inspect --recover ${folder})\n`,
    );
    return EXIT.SETUP;
  }
  throw error;
}
