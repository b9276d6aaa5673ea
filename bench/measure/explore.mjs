// 7. Explore: experiments per minute of `agentchaos explore examples/explore/order_agent.yaml`
// with --jobs 1 and --jobs 2 (wall time of the whole command: baseline, experiments and
// confirmation runs), and the per-run overhead of an experiment as explore runs it — the
// library's in-process experiment, no CLI start — against the same processes by hand (start
// the fake model and the fake API, wait until each listens, run the agent against them
// directly, stop both); median of RUNS each, interleaved.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CLI, EXAMPLES, fromDist, ROOT } from "../lib/paths.mjs";
import { runCommand, startServer } from "../lib/processes.mjs";
import { EVENT_STEPS, eventMoments, medianRows, stepLengths } from "../lib/run-phases.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const RUNS = 9;
const SCENARIO = join(EXAMPLES, "explore", "order_agent.yaml");

export async function explore() {
  const outputDir = makeTempDir("agentchaos-bench-explore-");
  try {
    const byJobs = {};
    for (const jobs of [1, 2])
      byJobs[`jobs${jobs}`] = await exploreOnce(jobs, join(outputDir, `jobs-${jobs}`));
    const overhead = await runOverhead(join(outputDir, "runs"));
    return { ...byJobs, ...overhead };
  } finally {
    removeTempDir(outputDir);
  }
}

async function exploreOnce(jobs, outputDir) {
  const args = [CLI, "explore", SCENARIO, "--jobs", String(jobs), "--seed", "1", "--reporter", "json"];
  const run = await runCommand(process.execPath, [...args, "--output-dir", outputDir], {
    cwd: ROOT,
    timeoutMs: 150_000,
  });
  if (run.code !== 1)
    throw new Error(`explore --jobs ${jobs} exited ${run.code}; expected 1 (the planted weakness)`);
  const [id] = await readdir(outputDir);
  const document = JSON.parse(await readFile(join(outputDir, id, "explore.json"), "utf8"));
  const experiments = document.experiments.length;
  const confirmations = document.experiments.filter((experiment) => experiment.confirmation !== null).length;
  const runs = document.baseline.length + experiments + confirmations;
  const minutes = run.wallMs / 60_000;
  return {
    wallS: round(run.wallMs / 1000, 2),
    experiments,
    runs,
    experimentsPerMinute: round(experiments / minutes, 1),
    runsPerMinute: round(runs / minutes, 1),
    meanRunMs: round(
      document.experiments.reduce((sum, experiment) => sum + experiment.duration_ms, 0) /
        Math.max(1, experiments),
      0,
    ),
  };
}

async function runOverhead(outputDir) {
  const { runExperiment } = await fromDist("index.js");
  const samples = { explore: [], byHand: [], phases: [], cpu: [] };
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const outcome = await runExperiment(SCENARIO, { outputDir });
    const cpu = process.cpuUsage(cpuBefore);
    if (outcome.result !== "PASSED") throw new Error(`the example's baseline ended ${outcome.result}`);
    samples.explore.push(performance.now() - started);
    // The experiment's own CPU (this process: the run's steps, proxies, judgement, report), not
    // its children's; the first run also loads the modules.
    samples.cpu.push((cpu.user + cpu.system) / 1000);
    samples.phases.push(
      stepLengths(EXPERIMENT_STEPS, {
        begun: started + performance.timeOrigin,
        ...(await eventMoments(outcome.runFolder)),
      }),
    );
    samples.byHand.push(await byHand());
  }
  const exploreMs = round(median(samples.explore), 1);
  const byHandMs = round(median(samples.byHand), 1);
  return {
    runs: RUNS,
    exploreRunMs: exploreMs,
    byHandMs,
    overheadMs: round(exploreMs - byHandMs, 1),
    cpuMs: round(median(samples.cpu), 1),
    firstRunCpuMs: round(samples.cpu[0], 1),
    phases: medianRows(EXPERIMENT_STEPS, samples.phases),
  };
}

/** The in-process experiment's phases: from the call to RUN_STARTED, then as a CLI run's. */
const EXPERIMENT_STEPS = [
  ["setup", "scenario loaded, run folder and its files created", "begun", "runStarted"],
  ...EVENT_STEPS,
];

async function byHand() {
  const started = performance.now();
  const [llm, shop] = await Promise.all([
    startServer(CLI, ["fake-llm", "--port", "0"], { cwd: ROOT }),
    startServer(join(EXAMPLES, "fake-api.mjs"), ["--port", "0"], { cwd: ROOT }),
  ]);
  try {
    const env = { ...process.env, AGENTCHAOS_LLM_URL: llm.url, AGENTCHAOS_SHOP_URL: shop.url };
    const agent = await runCommand(process.execPath, ["order-agent.mjs"], {
      cwd: join(EXAMPLES, "explore"),
      env,
    });
    if (agent.code !== 0) throw new Error(`the order agent exited ${agent.code} by hand`);
  } finally {
    await Promise.all([llm.stop(), shop.stop()]);
  }
  return performance.now() - started;
}
