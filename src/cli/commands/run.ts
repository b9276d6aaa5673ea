import { parseReporterList } from "../../reporters/names.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { parseMinPassRate, parseTrials } from "../../trials/options.js";
import type { ParsedArgs } from "../args.js";
import { parseJobs } from "../option-values.js";
import { emptyFolderExit, loadScenarioOrExit } from "../scenario-input.js";
import { scenarioPath } from "../scenario-path.js";
import { usageError } from "../usage.js";
import { runFailureExit } from "./run-failure.js";
import { singleRun } from "./single-run.js";

/**
 * `agentchaos run <scenario> [--output-dir PATH] [--reporter LIST] [--trials N [--jobs J]
 * [--min-pass-rate R]]`: a shell over `experiment`, or over the trials engine when N > 1
 * (with N = 1, `--jobs` and `--min-pass-rate` are checked and change nothing).
 */
export async function runCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const named = await scenarioPath(args.positionals[0] as string, io.cwd);
  const path = named.shown;
  if (named.emptyFolder) return emptyFolderExit(io, path);
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

  const scenario = await loadScenarioOrExit(io, named.absolute, path);
  if (typeof scenario === "number") return scenario;
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
    return (await singleRun(scenario, io, { outputDir, reporters })).exitCode;
  } catch (error) {
    return runFailureExit(io, path, error);
  }
}
