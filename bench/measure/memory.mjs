// 5. Memory: peak RSS of the Agent Chaos proxy process (and, for context, the bare proxy) while
// CONNECTIONS concurrent keep-alive connections send requests through it for DURATION_S seconds.
import { readFile } from "node:fs/promises";
import { measureLoad } from "../lib/load.mjs";
import { round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "../lib/targets.mjs";

const CONNECTIONS = 1000;
const DURATION_S = 4;

export async function memory() {
  const upstream = await startUpstream();
  try {
    const agentchaos = await measureProxy(upstream.url, startAgentChaosProxy);
    const bare = await measureProxy(upstream.url, startBareProxy);
    return { connections: CONNECTIONS, durationS: DURATION_S, agentchaos, bare };
  } finally {
    await upstream.stop();
  }
}

async function measureProxy(upstreamUrl, start) {
  const proxy = await start(upstreamUrl);
  let stopped = false;
  try {
    const idleKb = await statusKb(proxy.pid, "VmRSS");
    const load = await measureLoad(`${proxy.url}/json`, {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: 0,
      timeoutS: 20,
    });
    const hwmKb = await statusKb(proxy.pid, "VmHWM");
    stopped = true;
    const reported = await proxy.stop();
    const peakKb = Math.max(hwmKb ?? 0, reported?.maxRssKb ?? 0);
    return {
      idleRssMb: idleKb === null ? null : round(idleKb / 1024, 1),
      peakRssMb: peakKb > 0 ? round(peakKb / 1024, 1) : null,
      rps: load.rps,
      p99Ms: load.p99Ms,
      errors: load.errors,
      non2xx: load.non2xx,
    };
  } finally {
    if (!stopped) await proxy.stop();
  }
}

/** A `kB` field of /proc/<pid>/status (Linux), or null elsewhere. */
async function statusKb(pid, field) {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
