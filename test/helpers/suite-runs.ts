import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { type CliResult, ROOT, runBuiltCli } from "./cli.js";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";

export interface SuiteEventLine {
  readonly schema_version: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** One scenario's run inside a suite: what `agentchaos run` of that file would have left. */
export interface SuiteRun {
  /** The exit code `agentchaos run` would have returned for this scenario. */
  readonly exitCode: number;
  readonly runDir: string;
  /** The parsed report.json, untyped as in the tests that read a run folder themselves. */
  readonly report: ReturnType<typeof JSON.parse>;
  readonly events: SuiteEventLine[];
  /** For a failure message: the suite's output, and for a failed run the ends of its stderr logs. */
  readonly explain: string;
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

/** The suite's output and the last lines of each stderr log of one run folder. */
function explanation(cli: CliResult, runDir: string, exitCode: number): string {
  if (exitCode === 0) return cli.stdout;
  const logs = readdirSync(runDir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith("stderr.log"));
  const tails = logs.map((name) => {
    const text = readFileSync(join(runDir, name), "utf8");
    return `--- ${name}\n${text.split("\n").slice(-15).join("\n")}`;
  });
  return [cli.stdout, cli.stderr, ...tails].join("\n");
}

/**
 * Runs scenario files (paths relative to ROOT) with one `agentchaos suite` process of the built
 * CLI (one CLI start instead of one per scenario; each scenario still runs as `run` would, in its
 * own run folder) and reads each run's report and events from the suite folder. `jobs` is 2, or
 * 1 for examples whose verdict hangs on time windows, which then run one at a time. The fixed
 * ports of every file are locked for the suite, as a `run` of each would lock its own.
 */
export async function runSuite(
  files: readonly string[],
  outputDir: string,
  options: { readonly jobs?: 1 | 2; readonly env?: Record<string, string> } = {},
): Promise<SuiteOutcome> {
  const ports = new Set(files.flatMap((file) => fixedPortsOfCall(["run", file], ROOT)));
  const release = await lockPorts([...ports]);
  let cli: CliResult;
  try {
    cli = await runBuiltCli(
      [
        "suite",
        ...files,
        "--jobs",
        String(options.jobs ?? 2),
        "--reporter",
        "json",
        "--output-dir",
        outputDir,
      ],
      { env: options.env ?? {}, timeoutMs: 230_000 },
    );
  } finally {
    await release();
  }
  const suites = readdirSync(outputDir);
  if (suites.length !== 1)
    throw new Error(`expected one suite folder, found ${suites.length}: ${cli.stdout}${cli.stderr}`);
  const suiteDir = join(outputDir, suites[0] as string);
  const suite = JSON.parse(readFileSync(join(suiteDir, "suite.json"), "utf8")) as { entries: Entry[] };
  const runs = new Map<string, SuiteRun>();
  for (const entry of suite.entries) {
    if (entry.run_folder === null) throw new Error(`${entry.path} has no run folder`);
    const runDir = join(suiteDir, entry.run_folder);
    const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
    const explain = explanation(cli, runDir, entry.exit_code);
    runs.set(entry.path, { exitCode: entry.exit_code, runDir, report, events: eventsOf(runDir), explain });
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

/**
 * Runs a file's example scenarios in one suite before its tests (`runSuite`) and hands each test
 * its scenario's run. `outputDir` is called inside the hook (a `testFolder("all")` path).
 */
export function suiteOfExamples(
  files: readonly string[],
  outputDir: () => string,
  jobs: 1 | 2 = 2,
): (file: string) => Promise<SuiteRun> {
  let outcome: Promise<SuiteOutcome> | null = null;
  beforeAll(async () => {
    outcome = runSuite(files, outputDir(), { jobs });
    await outcome.catch(() => undefined);
  }, 240_000);
  return async (file) => {
    if (outcome === null) throw new Error("suiteOfExamples() runs are only available inside a test");
    return runOf(await outcome, file);
  };
}

export { ROOT };
