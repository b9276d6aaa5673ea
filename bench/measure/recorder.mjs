// 7. The recorder alone: events written per second, sustained over a million events, PER_TURN
// events per event-loop turn (a busy proxy), in its own process; median of RUNS runs.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const SCRIPT = fileURLToPath(new URL("../servers/recorder-load.mjs", import.meta.url));
const EVENTS = 1_000_000;
const PER_TURN = 64;
const RUNS = 3;

export async function recorder() {
  const samples = [];
  for (let run = 0; run < RUNS; run += 1) {
    const dir = makeTempDir("agentchaos-bench-recorder-");
    try {
      const args = [
        SCRIPT,
        "--events",
        join(dir, "events.jsonl"),
        "--count",
        String(EVENTS),
        "--per-turn",
        String(PER_TURN),
      ];
      const result = await runCommand(process.execPath, args, { timeoutMs: 120_000 });
      if (result.code !== 0) throw new Error(`recorder load exited ${result.code}`);
      samples.push(JSON.parse(result.stdout.trim().split("\n").at(-1)));
    } finally {
      removeTempDir(dir);
    }
  }
  return {
    events: EVENTS,
    perTurn: PER_TURN,
    runs: RUNS,
    eventsPerS: round(median(samples.map((s) => s.eventsPerS)), 0),
    runsEventsPerS: samples.map((s) => s.eventsPerS),
    megabytes: round(samples[0].bytes / 1024 / 1024, 1),
    peakRssMb: round(median(samples.map((s) => s.maxRssKb)) / 1024, 1),
  };
}
