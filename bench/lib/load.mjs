// HTTP load with autocannon's programmatic API. Latencies are taken from autocannon's per-response
// timings (sub-millisecond floats) rather than its histogram, whose resolution is 1 ms.
import autocannon from "autocannon";
import { percentile, round } from "./stats.mjs";

function cannon(options, onLatency) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onLatency) {
      instance.on("response", (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) onLatency(responseTime);
      });
    }
  });
}

/** One load of `url` for `durationS` seconds; resolves with { connections, latencies, seconds, errors, non2xx }. */
export async function loadOnce(url, { connections, durationS, timeoutS = 10 }) {
  const latencies = [];
  const started = performance.now();
  const options = { url, connections, duration: durationS, timeout: timeoutS, excludeErrorStats: true };
  const result = await cannon(options, (ms) => latencies.push(ms));
  const seconds = (performance.now() - started) / 1000;
  return { connections, latencies, seconds, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** Merges loads of one target: { connections, rps, p50Ms, p99Ms, requests, errors, non2xx }. */
export function summariseLoads(loads) {
  const latencies = loads.flatMap((load) => load.latencies).sort((a, b) => a - b);
  const seconds = loads.reduce((sum, load) => sum + load.seconds, 0);
  return {
    connections: loads[0].connections,
    rps: round(latencies.length / seconds, 0),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    requests: latencies.length,
    errors: loads.reduce((sum, load) => sum + load.errors, 0),
    non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
  };
}

/** `warmupS` seconds of load discarded, then `durationS` seconds measured and summarised. */
export async function measureLoad(url, { connections, durationS, warmupS = 1, timeoutS = 10 }) {
  if (warmupS > 0) await loadOnce(url, { connections, durationS: warmupS, timeoutS });
  return summariseLoads([await loadOnce(url, { connections, durationS, timeoutS })]);
}
