// Replay cost (docs/replay.md): the same load through Agent Chaos's proxy to the live upstream
// (a JSON answer from its own process) and through the proxy serving that answer from a
// cassette (`timing: immediate`), in rounds that alternate the two so that background load hits
// both alike; then how closely `timing: recorded` keeps an event stream's recorded gaps.
import { writeFile } from "node:fs/promises";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOAD_TOOL, loadOnce } from "../lib/load.mjs";
import { fromDist } from "../lib/paths.mjs";
import { startServer } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { startAgentChaosProxy, startUpstream } from "../lib/targets.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const CONNECTIONS = [1, 64];
const ROUNDS = 3;
const ROUND_S = 2;
const WARMUP_S = 1;
/** The recorded stream of the gaps measurement: one event every GAP_MS. */
const GAP_EVENTS = 11;
const GAP_MS = 25;
const GAP_REPEATS = 9;

const servers = fileURLToPath(new URL("../servers/", import.meta.url));

async function overhead(dir) {
  const upstream = await startUpstream();
  const started = [upstream];
  try {
    const live = await startAgentChaosProxy(upstream.url, { dependencies: ["llm"] });
    started.push(live);
    const replayed = await startServer(join(servers, "replay-proxy.mjs"), [
      "--upstream",
      upstream.url,
      "--events",
      join(dir, "replay-events.jsonl"),
      "--cassette",
      join(dir, "bench.jsonl"),
    ]);
    started.push(replayed);
    const targets = { live: live.url, replay: replayed.url };
    const results = {};
    for (const connections of CONNECTIONS) {
      const loads = { live: [], replay: [] };
      for (const url of Object.values(targets))
        await loadOnce(`${url}/json`, { connections, durationS: WARMUP_S });
      for (let round_ = 0; round_ < ROUNDS; round_++) {
        for (const [name, url] of Object.entries(targets)) {
          const load = await loadOnce(`${url}/json`, { connections, durationS: ROUND_S });
          if (load.errors > 0 || load.non2xx > 0)
            throw new Error(`${name}: ${load.errors} errors, ${load.non2xx} non-2xx`);
          loads[name].push(load);
        }
      }
      const rps = (name) => median(loads[name].map((load) => load.requests / load.seconds));
      const p50 = (name) => median(loads[name].map((load) => load.p50Ms));
      results[`c${connections}`] = {
        liveRps: round(rps("live"), 0),
        replayRps: round(rps("replay"), 0),
        rpsRatio: round(rps("replay") / rps("live"), 3),
        liveP50Ms: round(p50("live"), 3),
        replayP50Ms: round(p50("replay"), 3),
        p50Ratio: round(p50("replay") / p50("live"), 3),
      };
    }
    return results;
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}

/**
 * Serves a recorded stream with `timing: recorded` through the proxy and measures each event's
 * arrival against its offset, from the response head the workload sees (a first exchange loads
 * the proxy's stream relay and is not counted).
 */
async function gaps(dir) {
  const { CassetteUpstream } = await fromDist("proxy/cassette-upstream.js");
  const { startProxy } = await fromDist("proxy/server.js");
  const { CassetteBuilder, readCassette } = await fromDist("replay/cassette.js");
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const builder = new CassetteBuilder({
    dependency: "llm",
    protocol: "http",
    match: ["method", "path"],
    appendTo: null,
  });
  const events = Array.from({ length: GAP_EVENTS }, (_, i) => ({
    offset_ms: i * GAP_MS,
    text: `data: {"n":${i}}\n\n`,
  }));
  builder.add({
    method: "GET",
    path: "/sse",
    query_hash: empty,
    body_hash: empty,
    request_shape: {},
    status: 200,
    headers: { "content-type": "text/event-stream" },
    events,
  });
  const path = join(dir, "gaps.jsonl");
  await builder.write(path);
  const cassette = await readCassette(path, "gaps.jsonl", { dependency: "llm", protocol: "http" });
  const served = new CassetteUpstream({
    dependency: "llm",
    cassette,
    timing: "recorded",
    ignoreJsonFields: [],
    liveBaseUrl: null,
    onMismatch: () => undefined,
  });
  const sink = { emit: () => undefined };
  const proxy = await startProxy({
    upstreamBaseUrl: "http://127.0.0.1:9",
    sink,
    dependency: "llm",
    upstream: served,
  });
  const deviations = [];
  /** Each counted stream's worst event. */
  const worst = [];
  try {
    for (let repeat = 0; repeat <= GAP_REPEATS; repeat++) {
      const counted = repeat > 0;
      await new Promise((resolve, reject) => {
        http
          .get(`${proxy.url}/sse`, (response) => {
            const head = performance.now();
            let seen = 0;
            response.on("data", (chunk) => {
              const now = performance.now() - head;
              const arrived = chunk.toString("utf8").split("\n\n").length - 1;
              for (let i = 0; i < arrived && counted; i++)
                deviations.push(Math.abs(now - (events[seen + i]?.offset_ms ?? 0)));
              seen += arrived;
            });
            response.on("end", () => {
              if (counted) worst.push(Math.max(...deviations.slice(-GAP_EVENTS)));
              resolve();
            });
            response.on("error", reject);
          })
          .on("error", reject);
      });
    }
  } finally {
    await proxy.close();
  }
  const sorted = [...deviations].sort((a, b) => a - b);
  // The median stream's worst event: one stream delayed by the machine's scheduler does not decide.
  return {
    events: deviations.length,
    p50Ms: round(median(sorted), 2),
    medianWorstMs: round(median(worst), 2),
    maxMs: round(sorted.at(-1), 2),
  };
}

export async function replay() {
  const dir = makeTempDir("agentchaos-bench-replay-");
  try {
    await writeFile(join(dir, ".keep"), "");
    return { tool: LOAD_TOOL, ...(await overhead(dir)), gaps: await gaps(dir) };
  } finally {
    removeTempDir(dir);
  }
}
