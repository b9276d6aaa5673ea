// 4. Run overhead: wall time of one `agentchaos run` against the same dependencies and workload
// started by hand (bench/lib/by-hand.mjs), median of RUNS each, interleaved; for the bundled
// `{port}` example examples/scenarios/v2/support_baseline.yaml (two managed dependencies, no
// fault) with the table of where the run's time goes, and for the schema-1 no_fault.yaml.
// The phases come from the run's own events (their timestamps), its report.json's mtime and a
// clock loaded into the run with `--require` (bench/servers/phase-clock.cjs: Node started, the
// scenario opened, each spawn, readiness probe and listen, the exit).
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { handPlan, runByHand } from "../lib/by-hand.mjs";
import { CLI, EXAMPLES, ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { eventMoments } from "../lib/run-phases.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const RUNS = 5;
const PORT_EXAMPLE = join(EXAMPLES, "scenarios", "v2", "support_baseline.yaml");
const NO_FAULT = join(EXAMPLES, "scenarios", "no_fault.yaml");
const CLOCK = fileURLToPath(new URL("../servers/phase-clock.cjs", import.meta.url));

export async function runOverhead() {
  const outputDir = makeTempDir("agentchaos-bench-run-");
  try {
    const examples = {
      port: { path: PORT_EXAMPLE, plan: await handPlan(PORT_EXAMPLE), runs: [], hand: [] },
      noFault: { path: NO_FAULT, plan: await handPlan(NO_FAULT), runs: [], hand: [] },
    };
    let retried = 0;
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, example] of Object.entries(examples)) {
        // The examples' agents give up after 1–2 s without an answer; on an overloaded machine a
        // pair whose run or agent failed that way is taken again, once, and counted.
        for (let attempt = 1; ; attempt += 1) {
          const folder = join(outputDir, `${name}-${run}-${attempt}`);
          const pair = await Promise.resolve()
            .then(async () => ({
              timed: await timedRun(example.path, folder),
              byHand: await runByHand(example.plan),
            }))
            .then((taken) => {
              if (taken.byHand.code !== 0)
                throw new Error(`${example.path}: the workload exited ${taken.byHand.code} by hand`);
              return taken;
            })
            .catch((error) => {
              if (attempt > 1) throw error;
              return null;
            });
          if (pair === null) {
            retried += 1;
            continue;
          }
          example.runs.push(pair.timed);
          example.hand.push(pair.byHand);
          break;
        }
      }
    }
    const [port, noFault] = [examples.port, examples.noFault].map(summarise);
    return { runs: RUNS, retried, example: "examples/scenarios/v2/support_baseline.yaml", ...port, noFault };
  } finally {
    removeTempDir(outputDir);
  }
}

function summarise({ runs, hand }) {
  const agentchaosMs = round(median(runs.map((run) => run.wallMs)), 1);
  const baselineMs = round(median(hand.map((run) => run.wallMs)), 1);
  return {
    agentchaosMs,
    baselineMs,
    overheadMs: round(agentchaosMs - baselineMs, 1),
    phases: phaseTable(
      runs.map((run) => run.phases),
      hand.map((run) => run.phases),
    ),
  };
}

/** One `agentchaos run` (of `cli`) with the phase clock loaded: its wall time and its phases. */
export async function timedRun(scenario, outputDir, cli = CLI) {
  const clockFile = join(outputDir, "..", `clock-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  const startedAt = performance.timeOrigin + performance.now();
  const run = await runCommand(
    process.execPath,
    ["--require", CLOCK, cli, "run", scenario, "--output-dir", outputDir],
    {
      cwd: ROOT,
      env: { ...process.env, AGENTCHAOS_BENCH_PHASES: clockFile },
      timeoutMs: 30_000,
    },
  );
  const endedAt = performance.timeOrigin + performance.now();
  if (run.code !== 0) throw new Error(`run ${scenario} exited ${run.code}; expected 0`);
  const clock = JSON.parse(await readFile(clockFile, "utf8"));
  await rm(clockFile, { force: true });
  const [id] = await readdir(outputDir);
  const runDir = join(outputDir, id);
  const moments = {
    spawned: startedAt,
    loaded: clock.loaded,
    scenarioOpened: clock.scenarioOpened,
    ...(await eventMoments(runDir)),
    exit: clock.exit,
    exitSeen: endedAt,
  };
  const readinessProbes = clock.probes.length;
  const supervisor = clock.spawns.find((spawn) => spawn.file === "/bin/sh");
  const firstListen = clock.listens[0];
  const firstDependency = clock.spawns.find((spawn) => spawn.file !== "/bin/sh");
  return {
    wallMs: run.wallMs,
    phases: {
      ...Object.fromEntries(STEPS.map(([key, , from, to]) => [key, moments[to] - moments[from]])),
      readinessProbes,
      supervisorSpawnMs: supervisor ? supervisor.at - moments.runStarted : null,
      firstListenMs: firstListen?.listening == null ? null : firstListen.listening - firstListen.at,
      // CPU time of the agentchaos process (steady on a loaded machine, where wall time is not).
      cpuAtStartMs: clock.loadedCpu,
      cpuModulesMs: clock.scenarioOpenedCpu - clock.loadedCpu,
      cpuToFirstSpawnMs: (firstDependency?.cpu ?? clock.exitCpu) - clock.loadedCpu,
      cpuTotalMs: clock.exitCpu,
    },
  };
}

// [key, label, from, to, by-hand key]
const STEPS = [
  ["nodeStart", "Node start (to the first line of the CLI)", "spawned", "loaded"],
  ["cliModules", "CLI and `run` command modules loaded", "loaded", "scenarioOpened"],
  ["scenarioAndFolder", "scenario loaded, run folder and its files created", "scenarioOpened", "runStarted"],
  [
    "dependenciesSpawn",
    "supervisor started, dependencies spawned",
    "runStarted",
    "dependenciesStarted",
    "startedMs",
  ],
  [
    "readiness",
    "dependencies ready (readiness polling)",
    "dependenciesStarted",
    "dependenciesReady",
    "readyMs",
  ],
  ["proxies", "proxies listening", "dependenciesReady", "proxiesStarted"],
  ["workloadSpawn", "workload spawned", "proxiesStarted", "workloadStarted"],
  ["workload", "workload ran (to WORKLOAD_COMPLETED)", "workloadStarted", "workloadCompleted", "workloadMs"],
  ["stop", "proxies closed, dependencies stopped", "workloadCompleted", "dependenciesStopped", "stopMs"],
  ["judge", "events read back and judged (RUN_COMPLETED)", "dependenciesStopped", "runCompleted"],
  ["report", "report.json built and written", "runCompleted", "reportWritten"],
  ["summary", "terminal summary, reporters, exit", "reportWritten", "exit"],
  ["exitSeen", "process end seen by the caller", "exit", "exitSeen"],
];

function phaseTable(runs, hand) {
  const rows = STEPS.map(([key, label, , , handKey]) => {
    const ms = round(median(runs.map((phases) => phases[key])), 1);
    const byHandMs = handKey === undefined ? 0 : round(median(hand.map((phases) => phases[handKey])), 1);
    return { phase: label, ms, byHandMs, addedMs: round(ms - byHandMs, 1) };
  });
  return {
    rows,
    readinessProbes: median(runs.map((phases) => phases.readinessProbes)),
    supervisorSpawnMs: round(median(runs.map((phases) => phases.supervisorSpawnMs ?? 0)), 1),
    firstListenMs: round(median(runs.map((phases) => phases.firstListenMs ?? 0)), 1),
    cpu: Object.fromEntries(
      ["cpuAtStartMs", "cpuModulesMs", "cpuToFirstSpawnMs", "cpuTotalMs"].map((key) => [
        key,
        round(median(runs.map((phases) => phases[key])), 1),
      ]),
    ),
  };
}
