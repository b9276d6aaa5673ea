// A workload for `agentchaos run`: drives BENCH_CONNECTIONS concurrent keep-alive connections
// through the proxy at AGENTCHAOS_PROXY_URL for BENCH_DURATION_S seconds, then prints one JSON
// line { rps, errors, non2xx } and exits 0.
import autocannon from "autocannon";

const result = await autocannon({
  url: `${process.env.AGENTCHAOS_PROXY_URL}/json`,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 1000),
  duration: Number(process.env.BENCH_DURATION_S ?? 4),
  timeout: 20,
});
process.stdout.write(
  `${JSON.stringify({ rps: Math.round(result.requests.average), errors: result.errors, non2xx: result.non2xx })}\n`,
);
