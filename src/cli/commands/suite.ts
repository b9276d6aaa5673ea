import { SuiteError } from "../../report/suite-errors.js";
import { DEFAULT_SUITE_REPORTERS } from "../../reporters/names.js";
import { suite } from "../../suite/run-suite.js";
import { parseShard } from "../../suite/shard.js";
import { suiteTerminal } from "../../suite/terminal.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { OutputWriteError } from "../../support/write-file.js";
import type { ParsedArgs } from "../args.js";
import { parseJobs, runManyFlags } from "../option-values.js";
import { engineSignals } from "../scenario-input.js";
import { usageError } from "../usage.js";

/** `agentchaos suite <scenario-or-folder>... [options]`: a shell over the suite engine. */
export async function suiteCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const { values } = args;
  const jobs = typeof values.jobs === "string" ? parseJobs(values.jobs) : undefined;
  if (jobs === null) return usageError(io, `--jobs needs a positive integer, got '${values.jobs}'`);
  const shard = typeof values.shard === "string" ? parseShard(values.shard) : null;
  if (shard !== null && "problem" in shard) return usageError(io, shard.problem);
  const flags = runManyFlags(values, DEFAULT_SUITE_REPORTERS, false);
  if (typeof flags === "string") return usageError(io, flags);

  const terminal = suiteTerminal({ stream: io.stdout, env: io.env }, values.quiet === true);
  const started = Date.now();
  try {
    const done = await suite(args.positionals, {
      cwd: io.cwd,
      shard,
      ...flags,
      failFast: values["fail-fast"] === true,
      ...(jobs === undefined ? {} : { jobs }),
      ...(typeof values["output-dir"] === "string" ? { outputDir: values["output-dir"] } : {}),
      ...(typeof values.grep === "string" ? { grep: values.grep } : {}),
      ...(typeof values["grep-invert"] === "string" ? { grepInvert: values["grep-invert"] } : {}),
      exclude: args.lists?.exclude ?? [],
      ...engineSignals(io),
      onStart: terminal.start,
      onEntry: terminal.entry,
      onTrial: terminal.trial,
    });
    terminal.finish(done, Date.now() - started);
    return done.exitCode;
  } catch (error) {
    if (error instanceof SuiteError) {
      io.stderr.write(`Cannot run suite: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof OutputWriteError) {
      io.stderr.write(`Cannot write suite reports: ${error.message}\n`);
      return EXIT.SETUP;
    }
    throw error;
  }
}
