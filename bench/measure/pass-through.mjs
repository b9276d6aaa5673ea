// 1. Pass-through cost: a small JSON upstream loaded directly, through the bare reference proxy,
// through nginx (one worker, when installed) and through Agent Chaos (no fault, full event
// recording): schema 1, and schema 2 with two dependencies (two proxies, one recorder, the load
// split between them). Each server in its own process. Per connection level: a warm-up of each
// target, then ROUNDS rounds that load the targets in turn, so that drifting background load on
// the machine hits all of them alike.

import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { LOAD_TOOL, loadOnce, summariseLoads } from "../lib/load.mjs";
import { findNginx, startNginx } from "../lib/nginx.mjs";
import { round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "../lib/targets.mjs";

const CONNECTIONS = [1, 64];
/** Another build (a `dist` folder) measured in the same rounds, for before/after pairs. */
const BASELINE = process.env.AGENTCHAOS_BENCH_BASELINE;
const ROUNDS = 2;
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
const ROUND_S = 2;
const WARMUP_S = 1;

/** CPU time (user + system) a process has used so far, in microseconds; null off Linux. */
async function cpuUs(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * Loads the target and measures the CPU its process used per request: the cost of a request
 * in the proxy itself, far steadier than req/s on a machine other work shares.
 */
async function loadTarget(target, connections, durationS) {
  const before = target.pid === undefined ? null : await cpuUs(target.pid);
  const load = await loadUrls(target.urls, connections, durationS);
  const after = target.pid === undefined ? null : await cpuUs(target.pid);
  return { ...load, cpuUs: before === null || after === null ? null : after - before };
}

/** Loads one URL, or splits the connections over several URLs at once and merges the results. */
async function loadUrls(urls, connections, durationS) {
  if (urls.length === 1 || connections < urls.length)
    return loadOnce(`${urls[0]}/json`, { connections, durationS });
  const share = Math.floor(connections / urls.length);
  const loads = await Promise.all(
    urls.map((url) => loadOnce(`${url}/json`, { connections: share, durationS })),
  );
  const mean = (key) => loads.reduce((sum, load) => sum + load[key], 0) / loads.length;
  return {
    connections,
    requests: loads.reduce((sum, load) => sum + load.requests, 0),
    seconds: Math.max(...loads.map((load) => load.seconds)),
    p50Ms: mean("p50Ms"),
    p99Ms: Math.max(...loads.map((load) => load.p99Ms)),
    errors: loads.reduce((sum, load) => sum + load.errors, 0),
    non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
  };
}

export async function passThrough() {
  const upstream = await startUpstream();
  const started = [upstream];
  try {
    const targets = { direct: { urls: [upstream.url] } };
    const bare = await startBareProxy(upstream.url);
    started.push(bare);
    targets.bare = { urls: [bare.url], pid: bare.pid };
    const nginxPath = findNginx();
    if (nginxPath !== null) {
      const nginx = await startNginx(nginxPath, upstream.url);
      started.push(nginx);
      targets.nginx = { urls: [nginx.url] };
    }
    const agentchaos = await startAgentChaosProxy(upstream.url);
    started.push(agentchaos);
    targets.agentchaos = { urls: [agentchaos.url], pid: agentchaos.pid };
    const agentchaosV2 = await startAgentChaosProxy(upstream.url, { dependencies: ["llm", "tools"] });
    started.push(agentchaosV2);
    targets.agentchaosV2 = { urls: agentchaosV2.urls, pid: agentchaosV2.pid };
    if (BASELINE) {
      const baseline = await startAgentChaosProxy(upstream.url, { dist: BASELINE });
      started.push(baseline);
      targets.baseline = { urls: [baseline.url], pid: baseline.pid };
    }

    const runs = {};
    for (const connections of CONNECTIONS) {
      const loads = {};
      for (const [name, target] of Object.entries(targets)) {
        await loadUrls(target.urls, connections, WARMUP_S);
        loads[name] = [];
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [name, target] of Object.entries(targets)) {
          loads[name].push(await loadTarget(target, connections, ROUND_S));
        }
      }
      for (const name of Object.keys(targets)) {
        runs[name] ??= {};
        const summary = summariseLoads(loads[name]);
        const cpu = loads[name].map((load) => load.cpuUs);
        summary.cpuUsPerRequest = cpu.includes(null)
          ? null
          : round(cpu.reduce((sum, us) => sum + us, 0) / summary.requests, 1);
        runs[name][`c${connections}`] = summary;
      }
    }
    const stopped = await Promise.all([agentchaos.stop(), agentchaosV2.stop()]);
    started.splice(started.indexOf(agentchaos), 1);
    started.splice(started.indexOf(agentchaosV2), 1);
    return summarise(runs, stopped[0].events, stopped[1].events);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

function summarise(runs, eventsRecorded, eventsRecordedV2) {
  const { direct, bare, nginx, agentchaos, agentchaosV2, baseline } = runs;
  const added = (target) => round(target.c1.p50Ms - direct.c1.p50Ms);
  const requestsThrough = (target) => Object.values(target).reduce((sum, run) => sum + run.requests, 0);
  return {
    tool: LOAD_TOOL,
    warmupS: WARMUP_S,
    rounds: ROUNDS,
    roundS: ROUND_S,
    byTarget: runs,
    rpsRatioVsBare: {
      c1: ratio(agentchaos.c1.rps, bare.c1.rps),
      c64: ratio(agentchaos.c64.rps, bare.c64.rps),
    },
    rpsRatioVsBareV2: {
      c1: ratio(agentchaosV2.c1.rps, bare.c1.rps),
      c64: ratio(agentchaosV2.c64.rps, bare.c64.rps),
    },
    rpsRatioVsDirect: {
      c1: ratio(agentchaos.c1.rps, direct.c1.rps),
      c64: ratio(agentchaos.c64.rps, direct.c64.rps),
    },
    rpsRatioBaselineVsBare:
      baseline === undefined
        ? null
        : { c1: ratio(baseline.c1.rps, bare.c1.rps), c64: ratio(baseline.c64.rps, bare.c64.rps) },
    addedP50MsAt1Baseline: baseline === undefined ? null : added(baseline),
    rpsRatioVsNginx:
      nginx === undefined
        ? null
        : { c1: ratio(agentchaos.c1.rps, nginx.c1.rps), c64: ratio(agentchaos.c64.rps, nginx.c64.rps) },
    addedP50MsAt1: { bare: added(bare), agentchaos: added(agentchaos), agentchaosV2: added(agentchaosV2) },
    addedP50RatioAt1: ratio(added(agentchaos), added(bare)),
    addedP50RatioAt1V2: ratio(added(agentchaosV2), added(bare)),
    // Warm-up requests are recorded too, so this is a lower bound check of "recording was on".
    eventsRecorded,
    eventsRecordedV2,
    measuredRequestsThroughAgentChaos: requestsThrough(agentchaos),
    measuredRequestsThroughAgentChaosV2: requestsThrough(agentchaosV2),
  };
}

function ratio(a, b) {
  return b > 0 ? round(a / b) : null;
}
