// 2. Streaming: time to first byte and total time of an SSE stream (SSE_EVENTS events, one
// every SSE_INTERVAL_MS), directly, through the bare proxy (for context), through Agent Chaos,
// and through Agent Chaos with an armed stream fault whose cut point is never reached; median
// of RUNS runs each, interleaved.
import http from "node:http";
import { SSE_EVENTS } from "../lib/sse.mjs";
import { median, round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startBareProxy, startUpstream } from "../lib/targets.mjs";

const RUNS = 5;
const STREAM_TIMEOUT_MS = 10_000;

export async function streaming() {
  const upstream = await startUpstream();
  const started = [upstream];
  const agents = [];
  try {
    const bare = await startBareProxy(upstream.url);
    started.push(bare);
    const agentchaos = await startAgentChaosProxy(upstream.url);
    started.push(agentchaos);
    const armed = await startAgentChaosProxy(upstream.url, { armedStreamFault: true });
    started.push(armed);
    const targets = { direct: upstream.url, bare: bare.url, agentchaos: agentchaos.url, armed: armed.url };
    const samples = { direct: [], bare: [], agentchaos: [], armed: [] };
    const clients = {};
    for (const [name, url] of Object.entries(targets)) {
      clients[name] = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(clients[name]);
      await readStream(`${url}/json`, clients[name]); // opens the connections before timing
    }
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, url] of Object.entries(targets)) {
        samples[name].push(await readStream(`${url}/sse`, clients[name]));
      }
    }
    const result = {};
    for (const [name, runs] of Object.entries(samples)) {
      result[name] = {
        ttfbMs: round(median(runs.map((run) => run.ttfbMs))),
        totalMs: round(median(runs.map((run) => run.totalMs))),
        eventsReceived: Math.min(...runs.map((run) => run.events)),
      };
    }
    result.runs = RUNS;
    result.expectedEvents = SSE_EVENTS;
    result.addedTtfbMs = round(result.agentchaos.ttfbMs - result.direct.ttfbMs);
    result.addedTotalMs = round(result.agentchaos.totalMs - result.direct.totalMs);
    result.armedAddedTtfbMs = round(result.armed.ttfbMs - result.direct.ttfbMs);
    return result;
  } finally {
    for (const agent of agents) agent.destroy();
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** GETs `url`; resolves with the time to the first body byte, the total time and the `data:` lines seen. */
function readStream(url, agent) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    let ttfbMs = null;
    let text = "";
    const request = http.get(url, { agent, timeout: STREAM_TIMEOUT_MS }, (response) => {
      response.on("data", (chunk) => {
        ttfbMs ??= performance.now() - startedAt;
        text += chunk;
      });
      response.on("end", () => {
        const totalMs = performance.now() - startedAt;
        if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
        else resolve({ ttfbMs, totalMs, events: text.match(/^data:/gm)?.length ?? 0 });
      });
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`${url} timed out`)));
    request.on("error", reject);
  });
}
