// 11. Rendering and recovering a long run: a run folder of a synthetic 2,000,000-event
// events.jsonl (about a million operations, see lib/long-log.mjs) of schema 1, and of schema 2
// with two dependencies, with its scenario.yaml and the report.json the post-run step writes.
// Measured, each in its own process: `agentchaos report <run> --format html --output FILE` and
// `agentchaos inspect --recover <run>`: exit code, wall time, peak RSS (getrusage, through
// lib/report-max-rss.mjs) and the size of the page. AGENTCHAOS_BENCH_LONG_REPORT_EVENTS sets
// another length (a quick check).
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { longRunScenario, writeLongLog } from "../lib/long-log.mjs";
import { CLI, ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const ANALYZE = fileURLToPath(new URL("../servers/analyze-log.mjs", import.meta.url));
const REPORT_MAX_RSS = fileURLToPath(new URL("../lib/report-max-rss.mjs", import.meta.url));
const EVENTS = Number(process.env.AGENTCHAOS_BENCH_LONG_REPORT_EVENTS ?? 2_000_000);

/** Runs the CLI with `args` in its own process: exit code, wall seconds and peak RSS in MB. */
async function measureCli(dir, name, args) {
  const rssFile = join(dir, `${name}.max-rss`);
  const run = await runCommand(process.execPath, ["--import", REPORT_MAX_RSS, CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, AGENTCHAOS_BENCH_MAX_RSS_FILE: rssFile },
    timeoutMs: 600_000,
  });
  const maxRssKb = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) : Number.NaN;
  return { code: run.code, seconds: round(run.wallMs / 1000, 2), peakRssMb: round(maxRssKb / 1024, 1) };
}

/** A long run folder: scenario.yaml, events.jsonl and report.json, as `run` leaves them. */
async function writeRunFolder(dir, schema) {
  const events = join(dir, "events.jsonl");
  const scenario = join(dir, "scenario.yaml");
  writeFileSync(scenario, longRunScenario(schema));
  const written = writeLongLog(events, { schema, target: EVENTS });
  const args = [ANALYZE, "--events", events, "--scenario", scenario, "--report", join(dir, "report.json")];
  const analysis = await runCommand(process.execPath, args, { timeoutMs: 600_000 });
  if (analysis.code !== 0)
    throw new Error(`report.json of schema ${schema}: analysis exited ${analysis.code}`);
  return { ...written, eventsMb: round(statSync(events).size / 1024 / 1024, 0) };
}

async function measureSchema(schema) {
  const dir = makeTempDir("agentchaos-bench-long-report-");
  try {
    const written = await writeRunFolder(dir, schema);
    const page = join(dir, "out", "report.html");
    const report = await measureCli(dir, "report", ["report", dir, "--format", "html", "--output", page]);
    const recover = await measureCli(dir, "recover", ["inspect", "--recover", dir]);
    return {
      events: written.events,
      operations: written.operations,
      eventsMb: written.eventsMb,
      report: { ...report, htmlKb: existsSync(page) ? round(statSync(page).size / 1024, 1) : null },
      recover,
    };
  } finally {
    removeTempDir(dir);
  }
}

export async function longReport() {
  return { schema1: await measureSchema(1), schema2: await measureSchema(2) };
}
