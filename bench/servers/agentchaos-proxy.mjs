// Agent Chaos's proxy from the build under test, with no fault and full event recording, in its
// own process (as the CLI would run it, minus the workload). With `--dependencies a,b` it runs
// schema 2: one proxy per named dependency, all recording into one schema-2 recorder, and
// announces each URL. On shutdown it prints one JSON line:
// { "events": <events recorded>, "maxRssKb": <peak RSS>, "memoryPeaksMb": {...} }.
// Usage: node agentchaos-proxy.mjs --upstream http://127.0.0.1:PORT --events /tmp/.../events.jsonl
//        [--dependencies llm,tools]
//        [--armed-stream-fault yes]: schema 2, with an http_stream_truncate fault selecting every
//        `/sse` request (its first 1,000) whose cut point, after 1,000,000 events, is never
//        reached: every stream goes through the fault's relay and its cut-point scan.
import { announce, flags, onShutdown } from "../lib/child-lifecycle.mjs";
import { sampleAllocations, trackMemoryPeaks } from "../lib/memory-peaks.mjs";
import { fromDist } from "../lib/paths.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const { Recorder } = await fromDist("events/recorder.js");
const { startProxy } = await fromDist("proxy/server.js");

const options = flags();
const memoryPeaks = trackMemoryPeaks();
const allocations = await sampleAllocations(process.env.AGENTCHAOS_BENCH_ALLOC_PROFILE);
const armed = options["armed-stream-fault"] === "yes";
const names = options.dependencies ? options.dependencies.split(",") : [];
const recorder = new Recorder(options.events, "bench-run", armed || names.length > 0 ? 2 : 1);
const armedFault = {
  id: "armed",
  dependency: "llm",
  type: "http_stream_truncate",
  target: { kind: "http", method: null, path: "/sse" },
  trigger: { kind: "occurrence_schedule", occurrences: Array.from({ length: 1000 }, (_, i) => i + 1) },
  expect: "recover",
  afterEvents: 1_000_000,
  afterBytes: null,
};
let proxies;
if (armed) {
  proxies = [
    await startProxy({
      upstreamBaseUrl: options.upstream,
      sink: recorder,
      dependency: "llm",
      faults: [armedFault],
    }),
  ];
} else if (names.length > 0) {
  proxies = await Promise.all(
    names.map((dependency) =>
      startProxy({ upstreamBaseUrl: options.upstream, faults: [], dependency, sink: recorder }),
    ),
  );
} else {
  proxies = [await startProxy({ upstreamBaseUrl: options.upstream, sink: recorder })];
}

announce(proxies.map((proxy) => proxy.url).join(" "));
onShutdown(async () => {
  await allocations.stop();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  recorder.close();
  const report = {
    events: recorder.lastSequence,
    maxRssKb: peakRssKb(),
    memoryPeaksMb: memoryPeaks(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
});
