// 8. A long run's analysis: a synthetic 2,000,000-event events.jsonl (about a million
// operations, see lib/long-log.mjs) of schema 1, and of schema 2 with two dependencies; the
// post-run step of `agentchaos run` (read, analyse, RUN_COMPLETED, analyse, build and serialise
// the report) in its own process: wall time and peak RSS.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { longRunScenario, writeLongLog } from "../lib/long-log.mjs";
import { runCommand } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const SCRIPT = fileURLToPath(new URL("../servers/analyze-log.mjs", import.meta.url));
const EVENTS = 2_000_000;

async function measureSchema(schema) {
  const dir = makeTempDir("agentchaos-bench-long-");
  try {
    const events = join(dir, "events.jsonl");
    const scenario = join(dir, "scenario.yaml");
    writeFileSync(scenario, longRunScenario(schema));
    const written = writeLongLog(events, { schema, target: EVENTS });
    const args = [SCRIPT, "--events", events, "--scenario", scenario, "--report", join(dir, "report.json")];
    const run = await runCommand(process.execPath, args, { timeoutMs: 300_000 });
    const line = run.stdout.trim().split("\n").at(-1) ?? "";
    if (run.code !== 0 || !line.startsWith("{"))
      throw new Error(`analysis of schema ${schema} exited ${run.code}`);
    const result = JSON.parse(line);
    return {
      events: written.events,
      operations: written.operations,
      seconds: round(result.wallMs / 1000, 2),
      cpuSeconds: round(result.cpuMs / 1000, 2),
      peakRssMb: round(result.maxRssKb / 1024, 1),
      verdict: `${result.result} / ${result.reasonCode}`,
    };
  } finally {
    removeTempDir(dir);
  }
}

export async function longRun() {
  return { schema1: await measureSchema(1), schema2: await measureSchema(2) };
}
