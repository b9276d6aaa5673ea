// 14. Masking canaries in a large log: a run folder whose workload.log is LOG_MB MB of agent
// output with a string and a number canary every few hundred lines (some split over the read
// chunks), masked in its own process as `run` does it once its processes ended: wall time, peak
// RSS, and whether any canary was left. AGENTCHAOS_BENCH_MASK_LOG_MB sets another size.
import { closeSync, createReadStream, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromDist } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const SCRIPT = fileURLToPath(new URL("../servers/mask-logs.mjs", import.meta.url));
const LOG_MB = Number(process.env.AGENTCHAOS_BENCH_MASK_LOG_MB ?? 50);
const RUN_ID = "20261201T010000Z-1a2b3c4d";

/** Writes about `megabytes` MB of log lines, a canary every 250 lines; returns the canary count. */
function writeLog(path, megabytes, literals) {
  const fd = openSync(path, "w");
  let written = 0;
  let canaries = 0;
  let buffer = "";
  for (let line = 0; written < megabytes * 1024 * 1024; line += 1) {
    const canary = line % 250 === 0 ? literals[canaries++ % literals.length] : "";
    const text = `step ${line}: called the shop, got ${canary || "the usual answer"} and went on\n`;
    buffer += text;
    written += text.length;
    if (buffer.length > 1_000_000) {
      writeSync(fd, buffer);
      buffer = "";
    }
  }
  writeSync(fd, buffer);
  closeSync(fd);
  return canaries;
}

async function holdsAny(path, literals) {
  let tail = "";
  for await (const chunk of createReadStream(path, { encoding: "latin1" })) {
    const text = tail + chunk;
    if (literals.some((literal) => text.includes(literal))) return true;
    tail = text.slice(-32);
  }
  return false;
}

export async function logMasking() {
  const { canaryValues, canaryLiterals } = await fromDist("faults/corruption/canary.js");
  const literals = [
    ...canaryLiterals("string", canaryValues(RUN_ID, "wrong-note")),
    ...canaryLiterals("number", canaryValues(RUN_ID, "wrong-price")),
  ];
  const dir = makeTempDir("agentchaos-bench-mask-");
  try {
    const log = join(dir, "workload.log");
    const canaries = writeLog(log, LOG_MB, literals);
    const logMb = round(statSync(log).size / 1024 / 1024, 1);
    const run = await runCommand(process.execPath, [SCRIPT, "--dir", dir, "--run-id", RUN_ID], {
      timeoutMs: 300_000,
    });
    const line = run.stdout.trim().split("\n").at(-1) ?? "";
    if (run.code !== 0 || !line.startsWith("{")) throw new Error(`masking exited ${run.code}`);
    const result = JSON.parse(line);
    return {
      logMb,
      canaries,
      seconds: round(result.wallMs / 1000, 2),
      peakRssMb: round(result.maxRssKb / 1024, 1),
      canaryLeft: await holdsAny(log, literals),
    };
  } finally {
    removeTempDir(dir);
  }
}
