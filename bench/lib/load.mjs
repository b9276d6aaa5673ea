// HTTP load: `wrk` (a C load generator that leaves the two cores to the servers) when it is
// installed, else autocannon's programmatic API. Either way one load gives { connections,
// requests, seconds, p50Ms, p99Ms, errors, non2xx }; latencies are sub-millisecond (wrk's
// microsecond percentiles, or autocannon's per-response timings rather than its 1 ms histogram).
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { median, percentile, round } from "./stats.mjs";
import { makeTempDir } from "./temp-dirs.mjs";

/** `wrk` when it runs here, else `autocannon` (AGENTCHAOS_BENCH_LOAD=autocannon forces it). */
export const LOAD_TOOL =
  process.env.AGENTCHAOS_BENCH_LOAD !== "autocannon" &&
  spawnSync("wrk", ["-v"], { stdio: "ignore" }).error === undefined
    ? "wrk"
    : "autocannon";

// wrk prints its summary in human units; this script prints exact figures as one JSON line.
const WRK_SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"errors":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
`;
let wrkScript = null;

function runWrk(url, { connections, durationS, timeoutS }) {
  if (wrkScript === null) {
    wrkScript = join(makeTempDir("agentchaos-bench-wrk-"), "report.lua");
    writeFileSync(wrkScript, WRK_SCRIPT);
  }
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${durationS}s`,
    `--timeout`,
    `${timeoutS}s`,
    "-s",
    wrkScript,
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.split("\n").find((text) => text.startsWith('{"requests"'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`wrk exited ${code}`));
        return;
      }
      const r = JSON.parse(line);
      resolve({
        connections,
        requests: r.requests,
        seconds: r.durationUs / 1e6,
        p50Ms: r.p50Us / 1000,
        p99Ms: r.p99Us / 1000,
        errors: r.errors,
        non2xx: r.non2xx,
      });
    });
  });
}

function runAutocannon(url, { connections, durationS, timeoutS }) {
  const latencies = [];
  const started = performance.now();
  const options = { url, connections, duration: durationS, timeout: timeoutS, excludeErrorStats: true };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) {
        reject(error);
        return;
      }
      latencies.sort((a, b) => a - b);
      resolve({
        connections,
        requests: latencies.length,
        seconds: (performance.now() - started) / 1000,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      });
    });
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** One load of `url` for `durationS` seconds with the bench's load tool. */
export function loadOnce(url, { connections, durationS, timeoutS = 10 }) {
  const run = LOAD_TOOL === "wrk" ? runWrk : runAutocannon;
  return run(url, { connections, durationS, timeoutS });
}

/**
 * Merges loads of one target: { connections, rps, p50Ms, p99Ms, requests, errors, non2xx };
 * req/s over all loads, latency percentiles as the median of the loads' own.
 */
export function summariseLoads(loads) {
  const seconds = loads.reduce((sum, load) => sum + load.seconds, 0);
  const requests = loads.reduce((sum, load) => sum + load.requests, 0);
  return {
    connections: loads[0].connections,
    rps: round(requests / seconds, 0),
    p50Ms: round(median(loads.map((load) => load.p50Ms))),
    p99Ms: round(median(loads.map((load) => load.p99Ms))),
    requests,
    errors: loads.reduce((sum, load) => sum + load.errors, 0),
    non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
  };
}

/** `warmupS` seconds of load discarded, then `durationS` seconds measured and summarised. */
export async function measureLoad(url, { connections, durationS, warmupS = 1, timeoutS = 10 }) {
  if (warmupS > 0) await loadOnce(url, { connections, durationS: warmupS, timeoutS });
  return summariseLoads([await loadOnce(url, { connections, durationS, timeoutS })]);
}
