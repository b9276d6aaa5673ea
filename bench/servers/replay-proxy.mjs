// Agent Chaos's proxy serving one dependency from a cassette, in its own process, as `run` would
// with `replay: { timing: immediate }`: the cassette is first recorded from the live upstream
// (GET /json through the recording upstream), written, read back, then served by the cassette
// upstream standing in for the upstream of a schema-2 proxy with full event recording. The live
// upstream is not used after the recording.
// Usage: node replay-proxy.mjs --upstream http://127.0.0.1:PORT --events FILE --cassette FILE
import { announce, flags, onShutdown } from "../lib/child-lifecycle.mjs";
import { fromDist } from "../lib/paths.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const { Recorder } = await fromDist("events/recorder.js");
const { startProxy } = await fromDist("proxy/server.js");
const { startRecordingUpstream } = await fromDist("proxy/cassette-recorder.js");
const { CassetteUpstream } = await fromDist("proxy/cassette-upstream.js");
const { CassetteBuilder, readCassette } = await fromDist("replay/cassette.js");

const options = flags();
const builder = new CassetteBuilder({
  dependency: "llm",
  protocol: "http",
  match: ["method", "path", "body"],
  appendTo: null,
});
const recording = await startRecordingUpstream({
  baseUrl: options.upstream,
  builder,
  ignoreJsonFields: [],
  redact: [],
});
await (await fetch(`${recording.url}/json`)).text();
await recording.close();
await builder.write(options.cassette);

const cassette = await readCassette(options.cassette, "bench.jsonl", { dependency: "llm", protocol: "http" });
const served = new CassetteUpstream({
  dependency: "llm",
  cassette,
  timing: "immediate",
  ignoreJsonFields: [],
  liveBaseUrl: null,
  onMismatch: () => undefined,
});
const recorder = new Recorder(options.events, "bench-run", 3);
const proxy = await startProxy({
  upstreamBaseUrl: options.upstream,
  upstream: served,
  faults: [],
  dependency: "llm",
  sink: recorder,
  replayMismatchStatus: 599,
});
announce(proxy.url);
onShutdown(async () => {
  await proxy.close();
  await served.close();
  recorder.close();
  process.stdout.write(`${JSON.stringify({ events: recorder.lastSequence, maxRssKb: peakRssKb() })}\n`);
});
