// The recorder alone: emits EVENTS realistic operation events (per operation OPERATION_OBSERVED
// then OPERATION_SUCCEEDED; every 20th operation a FAULT_INJECTED, OPERATION_FAILED and a retry
// that succeeds) into a fresh events.jsonl, PER_TURN events per event-loop turn, as a busy proxy
// would. Prints one JSON line: { events, seconds, eventsPerS, bytes, maxRssKb }.
// Usage: node recorder-load.mjs --events /tmp/.../events.jsonl --count 1000000 --per-turn 64
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { flags } from "../lib/child-lifecycle.mjs";
import { fromDist } from "../lib/paths.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const { Recorder } = await fromDist("events/recorder.js");
const options = flags();
const count = Number(options.count ?? 1_000_000);
const perTurn = Number(options["per-turn"] ?? 64);
const HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const fingerprints = Array.from({ length: 64 }, (_, i) => `${HASH.slice(0, 62)}${(i + 16).toString(16)}`);

/** The events of one operation, as the proxy records them. */
function* operation(index) {
  const id = randomUUID();
  const fingerprint = fingerprints[index % fingerprints.length];
  const path = index % 3 === 0 ? "/v1/chat/completions" : `/tools/search/${index % 50}`;
  yield {
    kind: "OPERATION_OBSERVED",
    operation_id: id,
    protocol: "http",
    method: "POST",
    path,
    query_hash: HASH,
    body_hash: HASH,
    fingerprint,
  };
  if (index % 20 === 19) {
    yield {
      kind: "FAULT_INJECTED",
      operation_id: id,
      fault_type: "http_error",
      parameters: { status_code: 503 },
    };
    yield {
      kind: "OPERATION_FAILED",
      operation_id: id,
      fingerprint,
      failure_kind: "injected_http_error",
      status_code: 503,
      fault_related: true,
    };
    const retry = randomUUID();
    yield {
      kind: "OPERATION_OBSERVED",
      operation_id: retry,
      protocol: "http",
      method: "POST",
      path,
      query_hash: HASH,
      body_hash: HASH,
      fingerprint,
    };
    yield { kind: "RETRY_OBSERVED", operation_id: retry, retry_of_operation_id: id, fingerprint, attempt: 2 };
    yield {
      kind: "OPERATION_SUCCEEDED",
      operation_id: retry,
      fingerprint,
      status_code: 200,
      duration_ms: 3,
      fault_related: false,
    };
    return;
  }
  yield {
    kind: "OPERATION_SUCCEEDED",
    operation_id: id,
    fingerprint,
    status_code: 200,
    duration_ms: 2,
    fault_related: false,
  };
}

function* events() {
  for (let index = 0; ; index++) yield* operation(index);
}

const recorder = new Recorder(options.events, "bench-recorder");
const source = events();
const started = performance.now();
let emitted = 0;
await new Promise((resolve) => {
  const turn = () => {
    const until = Math.min(count, emitted + perTurn);
    while (emitted < until) {
      recorder.emit(source.next().value);
      emitted += 1;
    }
    if (emitted < count) setImmediate(turn);
    else resolve();
  };
  turn();
});
recorder.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ events: emitted, seconds, eventsPerS: Math.round(emitted / seconds), bytes: statSync(options.events).size, maxRssKb: peakRssKb() })}\n`,
);
