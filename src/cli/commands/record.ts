import { existsSync } from "node:fs";
import { type Cassette, CassetteError } from "../../replay/cassette.js";
import {
  readDependencyCassette,
  replayedDependencies,
  shownCassette,
} from "../../replay/scenario-cassettes.js";
import { parseReporterList } from "../../reporters/names.js";
import type { RecordRequest } from "../../runtime/replay-steps.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";
import type { ParsedArgs } from "../args.js";
import { emptyFolderExit, loadScenarioOrExit } from "../scenario-input.js";
import { scenarioPath } from "../scenario-path.js";
import { usageError } from "../usage.js";
import { runFailureExit } from "./run-failure.js";
import { singleRun } from "./single-run.js";

/**
 * `agentchaos record <scenario> [--dependency NAME]... [--force | --append] [--output-dir PATH]
 * [--reporter LIST]`: runs the scenario as written, faults included, against the live
 * dependencies, and writes the cassette of each dependency with `replay` (or of the named ones)
 * from what the upstream answered (docs/replay.md). Exits as `run` would.
 */
export async function recordCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const named = await scenarioPath(args.positionals[0] as string, io.cwd);
  const path = named.shown;
  if (named.emptyFolder) return emptyFolderExit(io, path);
  const force = args.values.force === true;
  const append = args.values.append === true;
  if (force && append) return usageError(io, "--force and --append cannot be used together");
  const reporterText = args.values.reporter;
  const reporters = typeof reporterText === "string" ? parseReporterList(reporterText) : [];
  if ("problem" in reporters) return usageError(io, reporters.problem);
  const outputDir = args.values["output-dir"];

  const scenario = await loadScenarioOrExit(io, named.absolute, path);
  if (typeof scenario === "number") return scenario;
  const replayed = replayedDependencies(scenario.dependencies);
  if (replayed.length === 0) {
    io.stderr.write(`Cannot record: ${terminalSafe(path)}: no dependency has replay (docs/replay.md)\n`);
    return EXIT.USAGE;
  }
  const asked = args.lists?.dependency ?? [];
  const unknown = asked.find((name) => !replayed.some((dependency) => dependency.name === name));
  if (unknown !== undefined) {
    const names = replayed.map((dependency) => dependency.name).join(", ");
    return usageError(io, `--dependency ${unknown}: not a dependency with replay (${names})`);
  }
  const recorded = replayed.filter((dependency) => asked.length === 0 || asked.includes(dependency.name));
  const appendTo = new Map<string, Cassette>();
  for (const dependency of recorded) {
    if (!existsSync(dependency.replay.cassette) || force) continue;
    if (!append) {
      io.stderr.write(
        `Cannot record: cassette ${terminalSafe(shownCassette(dependency.replay))} of ${dependency.name} exists; use --force to record it afresh or --append to add new interactions\n`,
      );
      return EXIT.USAGE;
    }
    try {
      appendTo.set(dependency.name, await readDependencyCassette(dependency));
    } catch (error) {
      if (!(error instanceof CassetteError)) throw error;
      io.stderr.write(`Invalid cassette: ${terminalSafe(error.message)}\n`);
      return EXIT.USAGE;
    }
  }
  if (io.interrupt?.aborted === true) return EXIT.INTERRUPTED;

  const record: RecordRequest = {
    dependencies: recorded.map((dependency) => dependency.name),
    appendTo,
    written: [],
  };
  try {
    const done = await singleRun(scenario, io, { outputDir, reporters, record });
    io.stdout.write("\nRecorded:\n");
    for (const cassette of record.written) {
      const what = append ? "new interactions" : "interactions";
      io.stdout.write(
        `  ${cassette.dependency}: ${cassette.interactions} ${what} -> ${terminalSafe(cassette.cassette)}\n`,
      );
    }
    if (done.result === "FAILED")
      io.stdout.write(
        `The recorded run FAILED (${done.reasonCode}); its cassettes were written all the same: check them before replaying.\n`,
      );
    return done.exitCode;
  } catch (error) {
    return runFailureExit(io, path, error);
  }
}
