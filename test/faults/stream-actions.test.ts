import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import {
  dechunk,
  faults,
  MemorySink,
  rawGet,
  startFaultProxy,
  startScriptedUpstream,
  streamFrom,
} from "../helpers/fault-proxy.js";

const SSE = { "Content-Type": "text/event-stream" };
const TOKENS = ['data: {"t":1}\n\n', 'data: {"t":2}\n\n', 'data: {"t":3}\n\n', "data: [DONE]\n\n"];

describe("http_stream_truncate", () => {
  it("is a complete, successful response for a real client, its failure recorded before the end reached it", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS, { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 2 })], sink);

    const response = await fetch(`${proxy.url}/v1/chat/completions`);
    const text = await response.text();
    const recordedBeforeEnd = sink.ofKind("OPERATION_FAILED").length;

    expect([response.ok, text]).toEqual([true, 'data: {"t":1}\n\ndata: {"t":2}\n\n']);
    expect(recordedBeforeEnd).toBe(1);
    expect(await upstream.cancelled[0]).toBe(true);
  });

  it("keeps the workload's connection usable for the next request", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 1 })], sink);

    const first = await (await fetch(`${proxy.url}/v1/s`)).text();
    const second = await (await fetch(`${proxy.url}/v1/s`)).text();

    expect(first).toBe(TOKENS[0]);
    expect(second).toBe(TOKENS.join(""));
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ relayed_events: 4, fault_related: true });
  });
});

describe("http_stream_reset", () => {
  it("is a transport error for a real client after the events before the cut, with no terminating chunk", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS, { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.reset({ afterEvents: 1 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);
    const failuresWhenTheErrorArrived = sink.ofKind("OPERATION_FAILED").length;

    expect(result.text).toBe(TOKENS[0]);
    expect(result.complete).toBe(false);
    expect(result.error).not.toBeNull();
    expect(failuresWhenTheErrorArrived).toBe(1);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_stream_reset",
      status_code: 200,
      fault_related: true,
      relayed_events: 1,
    });
    expect(await upstream.cancelled[0]).toBe(true);
  });

  it("sends the bytes before the cut and then closes without the zero-length chunk", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS, { hold: true });
    const proxy = await startFaultProxy(upstream.url, [faults.reset({ afterBytes: 20 })], new MemorySink());

    const raw = await rawGet(proxy.url, "/v1/stream");

    expect(dechunk(raw.body)).toEqual({ text: TOKENS.join("").slice(0, 20), terminated: false });
  });
});

describe("http_stream_error_event", () => {
  const frames = {
    anthropic:
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    openai:
      'data: {"error":{"message":"Injected by Agent Chaos","type":"server_error","param":null,"code":null}}\n\n',
  } as const;
  for (const format of ["anthropic", "openai"] as const) {
    it(`appends the exact ${format} error frame after the cut, then ends the response cleanly`, async () => {
      const upstream = await startScriptedUpstream(200, SSE, TOKENS, { hold: true });
      const sink = new MemorySink();
      const proxy = await startFaultProxy(
        upstream.url,
        [faults.errorEvent({ afterEvents: 2 }, format)],
        sink,
      );

      const raw = await rawGet(proxy.url, "/v1/stream");

      expect(dechunk(raw.body)).toEqual({
        text: TOKENS.slice(0, 2).join("") + frames[format],
        terminated: true,
      });
      expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ after_events: 2 });
      expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
        failure_kind: "injected_stream_error_event",
        status_code: 200,
        fault_related: true,
        relayed_events: 2,
      });
      expect(await upstream.cancelled[0]).toBe(true);
    });
  }
});

describe("http_stream_stall", () => {
  it("relays nothing for stall_ms after the cut, then the rest; the operation succeeds, fault-related", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.stall({ afterEvents: 1 }, 400)], sink);
    const arrivals: { at: number; text: string }[] = [];
    const started = performance.now();

    const response = await fetch(`${proxy.url}/v1/stream`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      arrivals.push({ at: performance.now() - started, text: Buffer.from(value).toString() });
    }

    const text = arrivals.map((arrival) => arrival.text).join("");
    const beforeStall = arrivals.find((arrival) => arrival.text.includes('"t":1'))?.at ?? 0;
    const afterStall = arrivals.find((arrival) => arrival.text.includes('"t":2'))?.at ?? 0;
    expect(text).toBe(TOKENS.join(""));
    expect(afterStall - beforeStall).toBeGreaterThanOrEqual(350);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ after_events: 1, stall_ms: 400 });
    expect(sink.kinds()).toEqual(["OPERATION_OBSERVED", "FAULT_INJECTED", "OPERATION_SUCCEEDED"]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({
      status_code: 200,
      fault_related: true,
      relayed_events: 4,
      closed_by_client: false,
    });
  });

  it("records client_disconnected when the workload gives up during the stall, and cancels the upstream", async () => {
    const upstream = await startScriptedUpstream(200, SSE, TOKENS, { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.stall({ afterEvents: 1 }, 60_000)], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`, {
      giveUpWhen: (received) => received === TOKENS[0],
    });

    expect(result.text).toBe(TOKENS[0]);
    expect(result.error?.message).toBe("gave up");
    await eventually(() => sink.ofKind("OPERATION_FAILED").length === 1);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_disconnected",
      status_code: 200,
      fault_related: true,
      relayed_events: 1,
    });
    expect(await upstream.cancelled[0]).toBe(true);
  });
});
