// CPU time (user + system, from Node's start to the exit) of the two commands a test run and a
// suite start most often, next to `node -e 0`: `agentchaos fake-llm --port 0` to its "listening"
// line and stopped by SIGTERM (the fake model server most examples start as a dependency), and
// the `agentchaos` process of a `run` of a small example (its children not counted). CPU time is
// what a loaded machine distorts least; RUNS runs each, interleaved, medians.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, ROOT } from "../lib/paths.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const RUNS = Number(process.env.AGENTCHAOS_BENCH_START_RUNS ?? 11);
const PRELOAD = fileURLToPath(new URL("../servers/exit-cpu.cjs", import.meta.url));
const SCENARIO = "examples/scenarios/v2/support_baseline.yaml";

/** Runs `node --require exit-cpu args`; `ready` (optional) is the stdout text after which it is sent SIGTERM. */
async function cpuOf(args, { ready, work }) {
  const cpuFile = join(work, `cpu-${process.hrtime.bigint()}`);
  const child = spawn(process.execPath, ["--require", PRELOAD, ...args], {
    cwd: ROOT,
    env: { ...process.env, AGENTCHAOS_BENCH_EXIT_CPU: cpuFile, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (ready !== undefined && stdout.includes(ready)) child.kill("SIGTERM");
  });
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  if (ready !== undefined && !stdout.includes(ready))
    throw new Error(`${args.join(" ")} never printed '${ready}'`);
  if (code !== 0 && code !== 1) throw new Error(`${args.join(" ")} exited with ${code}`);
  return Number(readFileSync(cpuFile, "utf8"));
}

export async function startCpu() {
  const work = makeTempDir("agentchaos-bench-start-");
  const commands = {
    node: [["-e", "0"], {}],
    fakeLlm: [[CLI, "fake-llm", "--port", "0"], { ready: "listening on" }],
    run: [[CLI, "run", SCENARIO, "--output-dir", join(work, "runs")], {}],
  };
  const samples = { node: [], fakeLlm: [], run: [] };
  try {
    for (const [args, options] of Object.values(commands)) await cpuOf(args, { ...options, work }); // warm the file cache
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, [args, options]] of Object.entries(commands)) {
        samples[name].push(await cpuOf(args, { ...options, work }));
      }
    }
  } finally {
    removeTempDir(work);
  }
  const result = { runs: RUNS };
  for (const [name, values] of Object.entries(samples))
    result[name] = { medianCpuMs: round(median(values), 1) };
  result.fakeLlmRatioVsNode = round(result.fakeLlm.medianCpuMs / result.node.medianCpuMs, 2);
  result.runRatioVsNode = round(result.run.medianCpuMs / result.node.medianCpuMs, 2);
  return result;
}
