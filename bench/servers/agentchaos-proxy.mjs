// Agent Chaos's proxy from dist/, with no fault and full event recording, in its own process
// (as the CLI would run it, minus the workload). On shutdown it prints one JSON line:
// { "events": <events recorded>, "maxRssKb": <peak RSS> }.
// Usage: node agentchaos-proxy.mjs --upstream http://127.0.0.1:PORT --events /tmp/.../events.jsonl
import { Recorder } from "../../dist/events/recorder.js";
import { startProxy } from "../../dist/proxy/server.js";
import { announce, flags, onShutdown } from "../lib/child-lifecycle.mjs";

const options = flags();
const recorder = new Recorder(options.events, "bench-run");
const proxy = await startProxy({ upstreamBaseUrl: options.upstream, fault: null, sink: recorder });

announce(proxy.url);
onShutdown(async () => {
  await proxy.close();
  recorder.close();
  const report = { events: recorder.lastSequence, maxRssKb: process.resourceUsage().maxRSS };
  process.stdout.write(`${JSON.stringify(report)}\n`);
});
