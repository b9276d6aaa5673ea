import { type CliIo, EXIT } from "../../support/cli-io.js";
import type { ParsedArgs } from "../args.js";
import { runManyFlags } from "../option-values.js";
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
  const flags = runManyFlags(args.values, [], true);
  if (typeof flags === "string") return usageError(io, flags);

  const scenario = await loadScenarioOrExit(io, named.absolute, path);
  if (typeof scenario === "number") return scenario;
  // Interrupted while the scenario was read: nothing was started or written.
  if (io.interrupt?.aborted === true) return EXIT.INTERRUPTED;
  if (flags.trials > 1) {
    const { runTrialsCommand } = await import("./run-trials.js");
    return runTrialsCommand(scenario, io, {
      path,
      ...flags,
      ...(typeof outputDir === "string" ? { outputDir } : {}),
    });
  }

  try {
    return (await singleRun(scenario, io, { outputDir, reporters: flags.reporters })).exitCode;
  } catch (error) {
    return runFailureExit(io, path, error);
  }
}
