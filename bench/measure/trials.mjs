// 11. Trials: wall time of `agentchaos run examples/trials/steady_agent.yaml --trials 10 --jobs 2`
// (its dependency starts on {port}, so trials run side by side) against 10 single
// `agentchaos run`s of the same scenario one after the other; ROUNDS rounds, interleaved, the
// median ratio reported (goal: at most 0.6 × the ten single runs on 2 cores).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CLI, EXAMPLES, ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const ROUNDS = 2;
const TRIALS = 10;
const JOBS = 2;
const SCENARIO = join(EXAMPLES, "trials", "steady_agent.yaml");

export async function trials() {
  const outputDir = makeTempDir("agentchaos-bench-trials-");
  try {
    const samples = { series: [], singles: [], ratio: [] };
    for (let round_ = 0; round_ < ROUNDS; round_ += 1) {
      const singlesMs = await singleRuns(join(outputDir, `singles-${round_}`));
      const seriesMs = await series(join(outputDir, `series-${round_}`));
      samples.singles.push(singlesMs);
      samples.series.push(seriesMs);
      samples.ratio.push(seriesMs / singlesMs);
    }
    return {
      rounds: ROUNDS,
      trials: TRIALS,
      jobs: JOBS,
      tenSinglesMs: round(median(samples.singles), 0),
      seriesMs: round(median(samples.series), 0),
      ratio: round(median(samples.ratio), 2),
      ratios: samples.ratio.map((ratio) => round(ratio, 2)),
    };
  } finally {
    removeTempDir(outputDir);
  }
}

async function singleRuns(outputDir) {
  let total = 0;
  for (let run = 0; run < TRIALS; run += 1) {
    const single = await runCommand(process.execPath, [CLI, "run", SCENARIO, "--output-dir", outputDir], {
      cwd: ROOT,
      timeoutMs: 60_000,
    });
    if (single.code !== 0) throw new Error(`a single run exited ${single.code}; expected 0`);
    total += single.wallMs;
  }
  return total;
}

async function series(outputDir) {
  const args = [CLI, "run", SCENARIO, "--trials", String(TRIALS), "--jobs", String(JOBS)];
  const run = await runCommand(process.execPath, [...args, "--output-dir", outputDir], {
    cwd: ROOT,
    timeoutMs: 300_000,
  });
  if (run.code !== 0) throw new Error(`run --trials exited ${run.code}; expected 0`);
  const [id] = await readdir(outputDir);
  const document = JSON.parse(await readFile(join(outputDir, id, "trials.json"), "utf8"));
  if (document.class !== "stable_pass" || document.trials !== TRIALS)
    throw new Error(`run --trials gave ${document.trials} trials, ${document.class}; expected stable_pass`);
  return run.wallMs;
}
