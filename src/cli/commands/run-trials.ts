import { resolve } from "node:path";
import type { ReporterName } from "../../reporters/names.js";
import { RunFolderError } from "../../runtime/run-folder.js";
import { ScenarioError } from "../../scenario/errors.js";
import type { AnyScenario } from "../../scenario/parse.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";
import { OutputWriteError } from "../../support/write-file.js";
import { TrialsError } from "../../trials/options.js";
import { trials } from "../../trials/run-trials.js";
import { trialsTerminal } from "../../trials/terminal.js";

export interface RunTrialsArgs {
  /** The scenario path as given (for messages). */
  readonly path: string;
  readonly trials: number;
  readonly jobs?: number;
  readonly minPassRate?: number;
  readonly outputDir?: string;
  readonly reporters: readonly ReporterName[];
}

/** `agentchaos run <scenario> --trials N` with N > 1: a shell over the trials engine. */
export async function runTrialsCommand(
  scenario: AnyScenario,
  io: CliIo,
  args: RunTrialsArgs,
): Promise<number> {
  const terminal = trialsTerminal({ stream: io.stdout, env: io.env }, scenario.name);
  const started = Date.now();
  try {
    const done = await trials(scenario, {
      cwd: io.cwd,
      trials: args.trials,
      reporters: args.reporters,
      ...(args.jobs === undefined ? {} : { jobs: args.jobs }),
      ...(args.minPassRate === undefined ? {} : { minPassRate: args.minPassRate }),
      ...(args.outputDir === undefined ? {} : { outputDir: resolve(io.cwd, args.outputDir) }),
      ...(io.interrupt === undefined ? {} : { signal: io.interrupt }),
      ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
      onStart: terminal.start,
      onTrial: terminal.trial,
    });
    terminal.finish(done, Date.now() - started);
    return done.exitCode;
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.stderr.write(`Cannot run scenario: ${terminalSafe(args.path)}: ${error.detail}\n`);
      return EXIT.USAGE;
    }
    if (error instanceof TrialsError) {
      io.stderr.write(`Cannot run trials: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof RunFolderError) {
      io.stderr.write(`Cannot start trials: ${error.message}\n`);
      return EXIT.SETUP;
    }
    if (error instanceof OutputWriteError) {
      io.stderr.write(`Cannot write trials.json: ${error.message}\n`);
      return EXIT.SETUP;
    }
    throw error;
  }
}
