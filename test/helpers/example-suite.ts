import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { type CliResult, ROOT, runBuiltCli } from "./cli.js";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";

/** One scenario's run inside a suite: what `agentchaos run` of that file would have left. */
export interface SuiteRun {
  /** The exit code `agentchaos run` would have returned for this scenario. */
  readonly exitCode: number;
  readonly runDir: string;
  /** The parsed report.json, untyped as in the tests that read a run folder themselves. */
  readonly report: ReturnType<typeof JSON.parse>;
  /** The suite process, for failure messages. */
  readonly suite: CliResult;
  /** For a failure message: the suite's output and the ends of this run's `*.stderr.log` files. */
  readonly explain: string;
}

/** The suite's output and the last lines of each stderr log of one run folder. */
async function explanation(suite: CliResult, runDir: string): Promise<string> {
  const logs = readdirSync(runDir).filter((name) => name.endsWith("stderr.log"));
  const tails = await Promise.all(
    logs.map(async (name) => {
      const text = await readFile(join(runDir, name), "utf8").catch(() => "");
      return `--- ${name}\n${text.split("\n").slice(-15).join("\n")}`;
    }),
  );
  return [suite.stdout, suite.stderr, ...tails].join("\n");
}

interface SuiteEntry {
  readonly path: string;
  readonly exit_code: number;
  readonly run_folder: string;
}

/**
 * Runs a file's example scenarios with one `agentchaos suite` process of the built CLI before its
 * tests (one CLI start instead of one per scenario; each scenario still runs as `run` would, in
 * its own run folder) and hands each test its scenario's run. `files` are relative to the
 * checkout; `outputDir` is called inside the hook (a `testFolder("all")` path). `jobs` is 2, or 1
 * for examples whose verdict hangs on time windows, which then run one at a time as before. The
 * fixed ports of every file are locked for the suite, as a `run` of each would lock its own.
 */
export function suiteOfExamples(
  files: readonly string[],
  outputDir: () => string,
  jobs: 1 | 2 = 2,
): (file: string) => Promise<SuiteRun> {
  let runs: Promise<Map<string, SuiteRun>> | null = null;
  beforeAll(async () => {
    runs = runSuite(files, outputDir(), jobs);
    await runs.catch(() => undefined);
  }, 240_000);
  return async (file) => {
    if (runs === null) throw new Error("suiteOfExamples() runs are only available inside a test");
    const run = (await runs).get(file);
    if (run === undefined) throw new Error(`${file} was not part of the suite`);
    return run;
  };
}

async function runSuite(
  files: readonly string[],
  outputDir: string,
  jobs: number,
): Promise<Map<string, SuiteRun>> {
  const ports = new Set(files.flatMap((file) => fixedPortsOfCall(["run", file], ROOT)));
  const release = await lockPorts([...ports]);
  let suite: CliResult;
  try {
    suite = await runBuiltCli(
      ["suite", ...files, "--jobs", String(jobs), "--output-dir", outputDir, "--reporter", "json"],
      { timeoutMs: 230_000 },
    );
  } finally {
    await release();
  }
  const folders = readdirSync(outputDir);
  if (folders.length !== 1) throw new Error(`no suite folder (${suite.stdout}${suite.stderr})`);
  const suiteDir = join(outputDir, folders[0] as string);
  const document = JSON.parse(await readFile(join(suiteDir, "suite.json"), "utf8")) as {
    entries: SuiteEntry[];
  };
  const runs = new Map<string, SuiteRun>();
  for (const entry of document.entries) {
    const runDir = join(suiteDir, entry.run_folder);
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    const explain = entry.exit_code === 0 ? suite.stdout : await explanation(suite, runDir);
    runs.set(entry.path, { exitCode: entry.exit_code, runDir, report, suite, explain });
  }
  return runs;
}
