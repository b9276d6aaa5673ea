// 1. Pass-through cost: a small JSON upstream loaded directly, through the bare reference proxy
// and through Agent Chaos (no fault, full event recording), each server in its own process.
// Per connection level: a warm-up of each target, then ROUNDS rounds that load the targets in
// turn, so that drifting background load on the machine hits all three alike.
import { loadOnce, summariseLoads } from "../lib/load.mjs";
import { round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "../lib/targets.mjs";

const CONNECTIONS = [1, 64];
const ROUNDS = 2;
const ROUND_S = 2;
const WARMUP_S = 1;

export async function passThrough() {
  const upstream = await startUpstream();
  const started = [upstream];
  try {
    const bare = await startBareProxy(upstream.url);
    started.push(bare);
    const agentchaos = await startAgentChaosProxy(upstream.url);
    started.push(agentchaos);
    const targets = { direct: upstream.url, bare: bare.url, agentchaos: agentchaos.url };

    const runs = {};
    for (const connections of CONNECTIONS) {
      const loads = {};
      for (const [name, url] of Object.entries(targets)) {
        await loadOnce(`${url}/json`, { connections, durationS: WARMUP_S });
        loads[name] = [];
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [name, url] of Object.entries(targets)) {
          loads[name].push(await loadOnce(`${url}/json`, { connections, durationS: ROUND_S }));
        }
      }
      for (const name of Object.keys(targets)) {
        runs[name] ??= {};
        runs[name][`c${connections}`] = summariseLoads(loads[name]);
      }
    }
    started.pop();
    const { events } = await agentchaos.stop();
    return summarise(runs, events);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

function summarise(runs, eventsRecorded) {
  const { direct, bare, agentchaos } = runs;
  const addedBare = bare.c1.p50Ms - direct.c1.p50Ms;
  const addedAgentChaos = agentchaos.c1.p50Ms - direct.c1.p50Ms;
  const requestsThroughAgentChaos = Object.values(agentchaos).reduce((sum, run) => sum + run.requests, 0);
  return {
    warmupS: WARMUP_S,
    rounds: ROUNDS,
    roundS: ROUND_S,
    byTarget: runs,
    rpsRatioVsBare: {
      c1: ratio(agentchaos.c1.rps, bare.c1.rps),
      c64: ratio(agentchaos.c64.rps, bare.c64.rps),
    },
    rpsRatioVsDirect: {
      c1: ratio(agentchaos.c1.rps, direct.c1.rps),
      c64: ratio(agentchaos.c64.rps, direct.c64.rps),
    },
    addedP50MsAt1: { bare: round(addedBare), agentchaos: round(addedAgentChaos) },
    addedP50RatioAt1: ratio(addedAgentChaos, addedBare),
    // Warm-up requests are recorded too, so this is a lower bound check of "recording was on".
    eventsRecorded,
    measuredRequestsThroughAgentChaos: requestsThroughAgentChaos,
  };
}

function ratio(a, b) {
  return b > 0 ? round(a / b) : null;
}
