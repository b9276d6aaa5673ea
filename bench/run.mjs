// `npm run bench`: runs the measurements (all, or the ones named on the command line, e.g.
// `node bench/run.mjs streaming memory`; `npmTest`, the whole test suite, runs last and is left out
// when AGENTCHAOS_BENCH_NPM_TEST=0), prints a table and writes the same figures to
// bench/results/latest.json (AGENTCHAOS_BENCH_RESULT names another file, AGENTCHAOS_BENCH_DIST
// another build to measure). Goals are reported, never asserted; the exit code is 1 only when a
// measurement could not be taken. Never part of `npm test`. Profiling: bench/profile.mjs.
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { judgeGoals } from "./lib/goals.mjs";
import { stopAll } from "./lib/processes.mjs";
import { renderReport } from "./lib/report.mjs";
import { removeAllTempDirs } from "./lib/temp-dirs.mjs";
import { cliStart } from "./measure/cli-start.mjs";
import { explore } from "./measure/explore.mjs";
import { htmlReport } from "./measure/html-report.mjs";
import { logMasking } from "./measure/log-masking.mjs";
import { longReport } from "./measure/long-report.mjs";
import { longRun } from "./measure/long-run.mjs";
import { mcpShim } from "./measure/mcp-shim.mjs";
import { memory } from "./measure/memory.mjs";
import { npmTest } from "./measure/npm-test.mjs";
import { passThrough } from "./measure/pass-through.mjs";
import { recorder } from "./measure/recorder.mjs";
import { relays } from "./measure/relays.mjs";
import { replay } from "./measure/replay.mjs";
import { runOverhead } from "./measure/run-overhead.mjs";
import { startCpu } from "./measure/start-cpu.mjs";
import { streaming } from "./measure/streaming.mjs";
import { trials } from "./measure/trials.mjs";

// The benchmarks reach nothing beyond loopback. A machine-wide NODE_EXTRA_CA_CERTS makes every
// Node process parse that certificate bundle as it starts (about 60 ms of CPU on a 2-core machine,
// twice Node's own start): a cost of the machine, paid alike by Agent Chaos and by every reference,
// so the bench's processes run without it unless AGENTCHAOS_BENCH_KEEP_CA_CERTS=1, and the report
// says which (docs/performance.md#running-the-benchmarks).
const caCerts =
  process.env.NODE_EXTRA_CA_CERTS === undefined
    ? "not set"
    : process.env.AGENTCHAOS_BENCH_KEEP_CA_CERTS === "1"
      ? "kept"
      : "removed";
// `npm test` takes the machine's environment as it is (the test suite decides for itself).
const machineEnv = { ...process.env };
if (caCerts === "removed") delete process.env.NODE_EXTRA_CA_CERTS;

const MEASUREMENTS = {
  cliStart,
  startCpu,
  passThrough,
  streaming,
  runOverhead,
  memory,
  htmlReport,
  mcpShim,
  explore,
  recorder,
  longRun,
  longReport,
  trials,
  relays,
  replay,
  logMasking,
  npmTest: () => npmTest(machineEnv),
};
/** Measurements a whole run leaves out on request (named on the command line, they run). */
const SKIPPED = new Set(process.env.AGENTCHAOS_BENCH_NPM_TEST === "0" ? ["npmTest"] : []);
const DEADLINE_MS = 1_800_000;
const RESULTS = new URL("./results/", import.meta.url);

async function abort(message, exitCode) {
  process.stderr.write(`\nbench: ${message}; stopping its processes\n`);
  await stopAll();
  removeAllTempDirs();
  process.exit(exitCode);
}

process.once("SIGINT", () => abort("interrupted", 130));
process.once("SIGTERM", () => abort("terminated", 143));
const deadline = setTimeout(() => abort(`over the ${DEADLINE_MS / 1000} s limit`, 1), DEADLINE_MS);

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in MEASUREMENTS));
if (unknown.length > 0)
  await abort(`unknown measurement ${unknown.join(", ")} (${Object.keys(MEASUREMENTS)})`, 2);

const results = {};
const errors = {};
for (const [name, measure] of Object.entries(MEASUREMENTS)) {
  if (wanted.length > 0 ? !wanted.includes(name) : SKIPPED.has(name)) continue;
  const started = performance.now();
  process.stderr.write(`bench: ${name}...`);
  try {
    results[name] = await measure();
  } catch (error) {
    errors[name] = error instanceof Error ? error.message : String(error);
    await stopAll();
    removeAllTempDirs();
  }
  process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
clearTimeout(deadline);

const goals = judgeGoals(results);
const machine = {
  node: process.version,
  platform: `${os.platform()} ${os.arch()}`,
  cpus: os.cpus().length,
  loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  nodeExtraCaCerts: caCerts,
};
removeAllTempDirs();
process.stdout.write(`\n${renderReport(results, errors, goals)}`);
process.stdout.write(
  `machine: ${machine.cpus} CPUs, load average ${machine.loadAverage.join(" ")} at the end; NODE_EXTRA_CA_CERTS ${caCerts}\n`,
);
await mkdir(RESULTS, { recursive: true });
const document = { generatedAt: new Date().toISOString(), machine, results, errors, goals };
const resultFile = process.env.AGENTCHAOS_BENCH_RESULT ?? "latest.json";
await writeFile(new URL(resultFile, RESULTS), `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`\nwritten to bench/results/${resultFile}\n`);
if (Object.keys(errors).length > 0) process.exitCode = 1;
