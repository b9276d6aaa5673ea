// Agent Chaos's proxy from dist/, with no fault and full event recording, in its own process
// (as the CLI would run it, minus the workload). On shutdown it prints one JSON line:
// { "events": <events recorded>, "maxRssKb": <peak RSS> }.
// Usage: node agentchaos-proxy.mjs --upstream http://127.0.0.1:PORT --events /tmp/.../events.jsonl
//        [--armed-stream-fault yes]: schema 2, with an http_stream_truncate fault selecting every
//        `/sse` request (its first 1,000) whose cut point, after 1,000,000 events, is never
//        reached: every stream goes through the fault's relay and its cut-point scan.
import { Recorder } from "../../dist/events/recorder.js";
import { startProxy } from "../../dist/proxy/server.js";
import { announce, flags, onShutdown } from "../lib/child-lifecycle.mjs";

const options = flags();
const armed = options["armed-stream-fault"] === "yes";
const recorder = new Recorder(options.events, "bench-run", armed ? 2 : 1);
const proxy = await startProxy(
  armed
    ? {
        upstreamBaseUrl: options.upstream,
        sink: recorder,
        dependency: "llm",
        faults: [
          {
            id: "armed",
            dependency: "llm",
            type: "http_stream_truncate",
            target: { kind: "http", method: null, path: "/sse" },
            trigger: {
              kind: "occurrence_schedule",
              occurrences: Array.from({ length: 1000 }, (_, i) => i + 1),
            },
            expect: "recover",
            afterEvents: 1_000_000,
            afterBytes: null,
          },
        ],
      }
    : { upstreamBaseUrl: options.upstream, fault: null, sink: recorder },
);

announce(proxy.url);
onShutdown(async () => {
  await proxy.close();
  recorder.close();
  const report = { events: recorder.lastSequence, maxRssKb: process.resourceUsage().maxRSS };
  process.stdout.write(`${JSON.stringify(report)}\n`);
});
