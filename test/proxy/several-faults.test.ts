import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Recorder } from "../../src/events/recorder.js";
import type { EventPayload, PayloadOf } from "../../src/events/types.js";
import { startProxy } from "../../src/proxy/server.js";
import type { HttpErrorFault, HttpTarget, OccurrenceTrigger } from "../../src/scenario/types.js";
import { send } from "../helpers/proxy-client.js";
import { onCleanup, startUpstream } from "../helpers/proxy-harness.js";
import { tempDir } from "../helpers/temp.js";

const schedule = (...occurrences: number[]): OccurrenceTrigger => ({
  kind: "occurrence_schedule",
  occurrences,
});
const on = (path: string, method: string | null = null): HttpTarget => ({ kind: "http", method, path });

function errorFault(
  id: string,
  dependency: string,
  target: HttpTarget,
  trigger: OccurrenceTrigger,
  statusCode = 503,
): HttpErrorFault {
  return { id, dependency, type: "http_error", target, trigger, expect: "recover", statusCode };
}

/** One recorder shared by every proxy of the test, as in a run; its lines read back at the end. */
async function sharedRecorder(): Promise<{ recorder: Recorder; payloads: () => Promise<EventPayload[]> }> {
  const folder = await tempDir();
  onCleanup(folder.remove);
  const recorder = new Recorder(join(folder.path, "events.jsonl"), "run", 2);
  onCleanup(() => recorder.close());
  return {
    recorder,
    payloads: async () =>
      (await readFile(recorder.path, "utf8"))
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { payload: EventPayload }).payload),
  };
}

function ofKind<T extends EventPayload["kind"]>(payloads: EventPayload[], kind: T): PayloadOf<T>[] {
  return payloads.filter((payload): payload is PayloadOf<T> => payload.kind === kind);
}

describe("several dependencies and faults in one timeline", () => {
  it("selects exactly each fault's occurrences among 200 concurrent requests over two dependencies and three faults", async () => {
    const [apiUpstream, llmUpstream] = await Promise.all([startUpstream(), startUpstream()]);
    const { recorder, payloads } = await sharedRecorder();
    const api = await startProxy({
      upstreamBaseUrl: apiUpstream.url,
      dependency: "api",
      sink: recorder,
      faults: [
        errorFault("api-a", "api", on("/a/*"), schedule(3, 40)),
        errorFault("api-b", "api", on("/b/*"), schedule(1, 2, 50)),
      ],
    });
    onCleanup(() => api.close());
    const llm = await startProxy({
      upstreamBaseUrl: llmUpstream.url,
      dependency: "llm",
      sink: recorder,
      faults: [errorFault("llm-a", "llm", on("/v1/*", "POST"), schedule(7, 8, 99), 500)],
    });
    onCleanup(() => llm.close());

    const requests = Array.from({ length: 200 }, (_, i) => {
      if (i % 2 === 0) return send(`${llm.url}/v1/chat/completions`, { method: "POST", body: `{"n":${i}}` });
      return send(`${api.url}/${i % 4 === 1 ? "a" : "b"}/${i}`);
    });
    const responses = await Promise.all(requests);
    await Promise.all([api.close(), llm.close()]);
    const events = await payloads();

    const observed = ofKind(events, "OPERATION_OBSERVED");
    expect(observed).toHaveLength(200);
    expect(new Set(observed.map((o) => o.operation_id)).size).toBe(200);
    expect(observed.filter((o) => o.dependency === "llm")).toHaveLength(100);
    expect(observed.filter((o) => o.dependency === "api")).toHaveLength(100);

    // Each fault's ordinal among the operations its target matches, on its own dependency.
    const ordinalsOf = (faultId: string, matches: (o: PayloadOf<"OPERATION_OBSERVED">) => boolean) => {
      const matching = observed.filter(matches).map((o) => o.operation_id);
      return ofKind(events, "FAULT_INJECTED")
        .filter((injected) => injected.fault_id === faultId)
        .map((injected) => matching.indexOf(injected.operation_id) + 1);
    };
    expect(ordinalsOf("api-a", (o) => o.dependency === "api" && o.path.startsWith("/a/"))).toEqual([3, 40]);
    expect(ordinalsOf("api-b", (o) => o.dependency === "api" && o.path.startsWith("/b/"))).toEqual([
      1, 2, 50,
    ]);
    expect(ordinalsOf("llm-a", (o) => o.dependency === "llm")).toEqual([7, 8, 99]);
    expect(responses.filter((r) => r.status === 503)).toHaveLength(5);
    expect(responses.filter((r) => r.status === 500)).toHaveLength(3);
    expect(apiUpstream.hits).toHaveLength(95);
    expect(llmUpstream.hits).toHaveLength(97);
    expect(ofKind(events, "FAULT_NOT_APPLIED")).toEqual([]);
    // Every operation has exactly one terminal event.
    const terminal = events.filter((e) => e.kind === "OPERATION_SUCCEEDED" || e.kind === "OPERATION_FAILED");
    expect(terminal).toHaveLength(200);
  });

  it("lets the first fault in list order act when two faults select one operation, and records the other as not applied", async () => {
    const upstream = await startUpstream();
    const { recorder, payloads } = await sharedRecorder();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      dependency: "crm",
      sink: recorder,
      faults: [
        errorFault("first", "crm", on("/tickets/*"), schedule(2)),
        errorFault("second", "crm", on("/tickets/*", "GET"), schedule(1, 2), 500),
      ],
    });
    onCleanup(() => proxy.close());
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(`${proxy.url}/tickets/${i}`)).status);
    await proxy.close();
    expect(statuses).toEqual([500, 503, 200]);
    const events = await payloads();
    const second = ofKind(events, "OPERATION_OBSERVED")[1]?.operation_id;
    expect(events.filter((e) => "operation_id" in e && e.operation_id === second).map((e) => e.kind)).toEqual(
      ["OPERATION_OBSERVED", "FAULT_INJECTED", "FAULT_NOT_APPLIED", "OPERATION_FAILED"],
    );
    expect(ofKind(events, "FAULT_NOT_APPLIED")).toEqual([
      { kind: "FAULT_NOT_APPLIED", operation_id: second, fault_id: "second", reason: "another_fault_acted" },
    ]);
    expect(ofKind(events, "FAULT_INJECTED").map((e) => e.fault_id)).toEqual(["second", "first"]);
  });

  it("records schema-2 operation keys: dependency, session, idempotency key hash, retry_after_ms", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(429, { "Retry-After": "2" }).end();
    });
    const { recorder, payloads } = await sharedRecorder();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      dependency: "crm",
      sink: recorder,
      faults: [],
    });
    onCleanup(() => proxy.close());
    await send(`${proxy.url}/tickets`, {
      method: "POST",
      body: "{}",
      headers: { "Idempotency-Key": "key-123" },
    });
    await proxy.close();
    const events = await payloads();
    const observed = ofKind(events, "OPERATION_OBSERVED")[0];
    expect(Object.keys(observed ?? {})).toEqual([
      "kind",
      "operation_id",
      "dependency",
      "protocol",
      "method",
      "path",
      "query_hash",
      "body_hash",
      "fingerprint",
      "session",
      "idempotency_key_hash",
    ]);
    expect(observed).toMatchObject({
      dependency: "crm",
      protocol: "http",
      session: null,
      idempotency_key_hash: createHash("sha256").update("key-123").digest("hex"),
    });
    expect(JSON.stringify(events)).not.toContain("key-123");
    expect(ofKind(events, "OPERATION_FAILED")[0]).toEqual({
      kind: "OPERATION_FAILED",
      operation_id: observed?.operation_id,
      fingerprint: observed?.fingerprint,
      failure_kind: "upstream_http_error",
      status_code: 429,
      fault_related: false,
      retry_after_ms: 2000,
      upstream_status: null,
      rpc_error_code: null,
      relayed_events: null,
    });
  });

  it("fingerprints a JSON body without the ignored members, so a retry that only changes them is linked", async () => {
    let calls = 0;
    const upstream = await startUpstream((_request, response) => {
      calls += 1;
      response.writeHead(calls === 1 ? 503 : 200).end("{}");
    });
    const { recorder, payloads } = await sharedRecorder();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      dependency: "llm",
      sink: recorder,
      faults: [errorFault("f1", "llm", on("/v1/*"), schedule(1))],
      ignoreJsonFields: ["/metadata/attempt"],
    });
    onCleanup(() => proxy.close());
    await send(`${proxy.url}/v1/x`, { method: "POST", body: '{"q":"hi","metadata":{"attempt":1}}' });
    await send(`${proxy.url}/v1/x`, { method: "POST", body: '{"metadata":{"attempt":2},"q":"hi"}' });
    await proxy.close();
    const events = await payloads();
    const [first, second] = ofKind(events, "OPERATION_OBSERVED");
    expect(first?.body_hash).not.toBe(second?.body_hash);
    expect(first?.fingerprint).toBe(second?.fingerprint);
    expect(ofKind(events, "RETRY_OBSERVED")).toEqual([
      {
        kind: "RETRY_OBSERVED",
        operation_id: second?.operation_id,
        retry_of_operation_id: first?.operation_id,
        fingerprint: first?.fingerprint,
        attempt: 2,
      },
    ]);
  });
});
