// 4. Run overhead: wall time of `agentchaos run examples/scenarios/no_fault.yaml` against the same
// dependency and workload run by hand (start the fake API, poll its readiness path, run the demo
// agent against it directly, stop the fake API); median of RUNS each, interleaved.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import { CLI, EXAMPLES, ROOT } from "../lib/paths.mjs";
import { runCommand, spawnTracked, stopChild } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const RUNS = 5;
const SCENARIO = join(EXAMPLES, "scenarios", "no_fault.yaml");
const READY_POLL_MS = 10; // tighter than the CLI's ~50 ms (docs/cli.md): that gap counts as overhead
const READY_TIMEOUT_MS = 10_000;

export async function runOverhead() {
  const scenario = parse(await readFile(SCENARIO, "utf8"));
  const outputDir = makeTempDir("agentchaos-bench-run-");
  try {
    const samples = { agentchaos: [], baseline: [] };
    const failures = {};
    for (let run = 0; run < RUNS; run += 1) {
      const args = [CLI, "run", SCENARIO, "--output-dir", outputDir];
      const viaCli = await runCommand(process.execPath, args, { cwd: ROOT, timeoutMs: 30_000 });
      if (viaCli.code !== 0) failures.agentchaos = viaCli.code;
      samples.agentchaos.push(viaCli.wallMs);
      const byHand = await runByHand(scenario);
      if (byHand.code !== 0) failures.baseline = byHand.code;
      samples.baseline.push(byHand.wallMs);
    }
    const agentchaosMs = round(median(samples.agentchaos), 1);
    const baselineMs = round(median(samples.baseline), 1);
    const result = { runs: RUNS, agentchaosMs, baselineMs, overheadMs: round(agentchaosMs - baselineMs, 1) };
    // A command that failed measured nothing worth comparing.
    if (Object.keys(failures).length > 0) throw new Error(`non-zero exits: ${JSON.stringify(failures)}`);
    return result;
  } finally {
    removeTempDir(outputDir);
  }
}

async function runByHand(scenario) {
  const scenarioDir = dirname(SCENARIO);
  const { base_url: baseUrl, start } = scenario.dependency;
  const { workload } = scenario;
  const startedAt = performance.now();
  const [command, ...args] = start.command;
  const dependency = spawnTracked(command, args, { cwd: resolve(scenarioDir, start.cwd ?? ".") });
  try {
    await waitUntilReady(`${baseUrl.replace(/\/+$/, "")}${start.readiness?.path ?? "/"}`);
    const env = { ...process.env, ...workload.env, [workload.proxy_url_env]: baseUrl };
    const [workCommand, ...workArgs] = workload.command;
    const cwd = resolve(scenarioDir, workload.cwd ?? ".");
    const { code } = await runCommand(workCommand, workArgs, { cwd, env, timeoutMs: 30_000 });
    await stopChild(dependency);
    return { code, wallMs: performance.now() - startedAt };
  } finally {
    await stopChild(dependency);
  }
}

async function waitUntilReady(url) {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if ((await statusOf(url)) === 200) return;
    await new Promise((done) => setTimeout(done, READY_POLL_MS));
  }
  throw new Error(`${url} was not ready within ${READY_TIMEOUT_MS} ms`);
}

function statusOf(url) {
  return new Promise((done) => {
    const request = http.get(url, { agent: false, timeout: 1000 }, (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => done(null));
  });
}
