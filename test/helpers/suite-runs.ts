import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CliResult, ROOT, runBuiltCli } from "./cli.js";

export interface SuiteEventLine {
  readonly schema_version: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** One scenario of a suite: its `suite.json` entry, run folder, report and events. */
export interface SuiteRun {
  readonly exitCode: number;
  readonly runDir: string;
  readonly report: Record<string, unknown>;
  readonly events: SuiteEventLine[];
}

export interface SuiteOutcome {
  readonly cli: CliResult;
  /** Each scenario's run, by the path it was named with (relative to ROOT). */
  readonly runs: ReadonlyMap<string, SuiteRun>;
}

interface Entry {
  readonly path: string;
  readonly exit_code: number;
  readonly run_folder: string | null;
}

function eventsOf(runDir: string): SuiteEventLine[] {
  return readFileSync(join(runDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as SuiteEventLine);
}

/**
 * Runs scenario files (paths relative to ROOT) with one `agentchaos suite --jobs 2` process of the
 * built CLI, and reads each run's report and events from the suite folder, so files that only
 * check each run's outcome and evidence pay for one CLI start instead of one per scenario.
 */
export async function runSuite(
  files: readonly string[],
  outputDir: string,
  env: Record<string, string> = {},
): Promise<SuiteOutcome> {
  const cli = await runBuiltCli(
    ["suite", ...files, "--jobs", "2", "--reporter", "json", "--output-dir", outputDir],
    { env, timeoutMs: 180_000 },
  );
  const suites = readdirSync(outputDir);
  if (suites.length !== 1)
    throw new Error(`expected one suite folder, found ${suites.length}: ${cli.stderr}`);
  const suiteDir = join(outputDir, suites[0] as string);
  const suite = JSON.parse(readFileSync(join(suiteDir, "suite.json"), "utf8")) as { entries: Entry[] };
  const runs = new Map<string, SuiteRun>();
  for (const entry of suite.entries) {
    if (entry.run_folder === null) throw new Error(`${entry.path} has no run folder`);
    const runDir = join(suiteDir, entry.run_folder);
    const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
    runs.set(entry.path, { exitCode: entry.exit_code, runDir, report, events: eventsOf(runDir) });
  }
  return { cli, runs };
}

/** The run of one scenario file of a suite, failing clearly when the suite did not run it. */
export function runOf(outcome: SuiteOutcome, file: string): SuiteRun {
  const run = outcome.runs.get(file);
  if (run === undefined)
    throw new Error(`the suite has no run of ${file} (exit ${outcome.cli.code}): ${outcome.cli.stderr}`);
  return run;
}

export { ROOT };
