import { resolve } from "node:path";
import type { AnyScenario } from "../../scenario/parse.js";
import type { CliIo } from "../../support/cli-io.js";
import { TrialsError } from "../../trials/options.js";
import { trials } from "../../trials/run-trials.js";
import { trialsTerminal } from "../../trials/terminal.js";
import type { RunManyFlags } from "../option-values.js";
import { engineSignals } from "../scenario-input.js";
import { runFailureExit } from "./run-failure.js";

export interface RunTrialsArgs extends RunManyFlags {
  /** The scenario path as given (for messages). */
  readonly path: string;
  readonly outputDir?: string;
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
      ...engineSignals(io),
      onStart: terminal.start,
      onTrial: terminal.trial,
    });
    terminal.finish(done, Date.now() - started);
    return done.exitCode;
  } catch (error) {
    if (error instanceof TrialsError) {
      io.stderr.write(`Cannot run trials: ${error.message}\n`);
      return error.exitCode;
    }
    return runFailureExit(io, args.path, error, { started: "trials", written: "trials.json" });
  }
}
