/**
 * The demo agent gives each request 150 ms (`DEMO_TIMEOUT_MS`, docs/examples.md). Only an
 * `http_latency` fault makes an answer that late on loopback; when the agent timed out more often
 * than such a fault was injected, the machine starved the agent or its proxy of the CPU and the run
 * shows that, not the example. The events tell: the fault's `FAULT_INJECTED` lines against the
 * agent's `failed: TimeoutError` lines.
 */
export function starvedRun(stdout: string, events: string): boolean {
  const timeouts = stdout.match(/^\[demo-agent OUT\] Attempt \d+ failed: TimeoutError$/gm)?.length ?? 0;
  const latencies = events.match(/"type":"FAULT_INJECTED".*"fault_type":"http_latency"/g)?.length ?? 0;
  return timeouts > latencies;
}
