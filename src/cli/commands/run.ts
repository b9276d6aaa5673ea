import { resolve } from "node:path";
import { parseReporterList } from "../../reporters/names.js";
import { DEFAULT_RUNS_DIR, experiment } from "../../runtime/experiment.js";
import { liveOutput } from "../../runtime/live-output.js";
import { formatScenarioError, ScenarioError } from "../../scenario/errors.js";
import { loadScenario } from "../../scenario/load.js";
import type { AnyScenario } from "../../scenario/parse.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";
import { parseMinPassRate, parseTrials } from "../../trials/options.js";
import type { ParsedArgs } from "../args.js";
import { parseJobs } from "../option-values.js";
import { NO_SCENARIO_IN_FOLDER, scenarioPath } from "../scenario-path.js";
import { usageError } from "../usage.js";
import { runFailureExit } from "./run-failure.js";

/**
 * `agentchaos run <scenario> [--output-dir PATH] [--reporter LIST] [--trials N [--jobs J]
 * [--min-pass-rate R]]`: a shell over `experiment`, or over the trials engine when N > 1
 * (with N = 1, `--jobs` and `--min-pass-rate` are checked and change nothing).
 */
export async function runCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const named = await scenarioPath(args.positionals[0] as string, io.cwd);
  const path = named.shown;
  if (named.emptyFolder) {
    io.stderr.write(`Invalid scenario: ${terminalSafe(path)}: ${NO_SCENARIO_IN_FOLDER}\n`);
    return EXIT.USAGE;
  }
  const outputDir = args.values["output-dir"];
  const reporterText = args.values.reporter;
  const reporters = typeof reporterText === "string" ? parseReporterList(reporterText) : [];
  if ("problem" in reporters) return usageError(io, reporters.problem);
  const { values } = args;
  const trials = typeof values.trials === "string" ? parseTrials(values.trials) : 1;
  if (typeof trials !== "number") return usageError(io, trials.problem);
  const jobs = typeof values.jobs === "string" ? parseJobs(values.jobs) : undefined;
  if (jobs === null) return usageError(io, `--jobs needs a positive integer, got '${values.jobs}'`);
  const minPassRate =
    typeof values["min-pass-rate"] === "string" ? parseMinPassRate(values["min-pass-rate"]) : undefined;
  if (typeof minPassRate === "object") return usageError(io, minPassRate.problem);

  let scenario: AnyScenario;
  try {
    scenario = await loadScenario(named.absolute);
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.stderr.write(`Invalid scenario: ${formatScenarioError(error, path)}\n`);
      return EXIT.USAGE;
    }
    throw error;
  }
  // Interrupted while the scenario was read: nothing was started or written.
  if (io.interrupt?.aborted === true) return EXIT.INTERRUPTED;
  if (trials > 1) {
    const { runTrialsCommand } = await import("./run-trials.js");
    return runTrialsCommand(scenario, io, {
      path,
      trials,
      reporters,
      ...(jobs === undefined ? {} : { jobs }),
      ...(minPassRate === undefined ? {} : { minPassRate }),
      ...(typeof outputDir === "string" ? { outputDir } : {}),
    });
  }

  try {
    const done = await experiment(scenario, {
      outputDir: resolve(io.cwd, typeof outputDir === "string" ? outputDir : DEFAULT_RUNS_DIR),
      ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
      ...(io.forceStop === undefined ? {} : { forceStop: io.forceStop }),
      output: liveOutput(scenario, { stream: io.stdout, env: io.env }),
      reporters,
    });
    if (done.written.length > 0) io.stdout.write(`\nAlso written:\n${done.written.join("\n")}\n`);
    return done.exitCode;
  } catch (error) {
    return runFailureExit(io, path, error);
  }
}
