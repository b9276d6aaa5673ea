// A workload for `agentchaos run`: drives BENCH_CONNECTIONS concurrent keep-alive connections
// through the proxy at AGENTCHAOS_PROXY_URL for BENCH_DURATION_S seconds with the bench's load
// tool, then prints one JSON line { rps, errors, non2xx, tool } and exits 0.
import { LOAD_TOOL, loadOnce } from "../lib/load.mjs";
import { removeAllTempDirs } from "../lib/temp-dirs.mjs";

try {
  const result = await loadOnce(`${process.env.AGENTCHAOS_PROXY_URL}/json`, {
    connections: Number(process.env.BENCH_CONNECTIONS ?? 1000),
    durationS: Number(process.env.BENCH_DURATION_S ?? 4),
    timeoutS: 20,
  });
  process.stdout.write(
    `${JSON.stringify({ rps: Math.round(result.requests / result.seconds), errors: result.errors, non2xx: result.non2xx, tool: LOAD_TOOL })}\n`,
  );
} finally {
  removeAllTempDirs();
}
