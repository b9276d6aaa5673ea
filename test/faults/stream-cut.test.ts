import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  byteSteps,
  dechunk,
  faults,
  MemorySink,
  rawGet,
  type Step,
  startFaultProxy,
  startScriptedUpstream,
  streamFrom,
} from "../helpers/fault-proxy.js";

const SSE = { "Content-Type": "text/event-stream" };
const FOUR_EVENTS = ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n", "data: 4\n\n"];

describe("mid-stream cut point", () => {
  it("relays exactly the events before the cut with chunked encoding, then a clean end, and cancels the upstream", async () => {
    const upstream = await startScriptedUpstream(200, SSE, FOUR_EVENTS, { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 2 })], sink);

    const { head, body } = await rawGet(proxy.url, "/v1/stream");

    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(head.toLowerCase()).toContain("\r\ntransfer-encoding: chunked");
    expect(head.toLowerCase()).not.toContain("content-length");
    expect(head.toLowerCase()).not.toContain("x-agent-chaos-fault");
    expect(dechunk(body)).toEqual({ text: "data: 1\n\ndata: 2\n\n", terminated: true });
    expect(await upstream.cancelled[0]).toBe(true);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ after_events: 2 });
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: expect.any(String),
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        failure_kind: "injected_stream_truncated",
        status_code: 200,
        fault_related: true,
        retry_after_ms: null,
        upstream_status: null,
        rpc_error_code: null,
        relayed_events: 2,
      },
    ]);
  });

  const forms: Record<string, { text: string; cutAfterFirst: number }> = {
    LF: { text: "data: a\n\ndata: b\n\n", cutAfterFirst: 9 },
    CRLF: { text: "data: a\r\n\r\ndata: b\r\n\r\n", cutAfterFirst: 11 },
    CR: { text: "data: a\r\rdata: b\r\r", cutAfterFirst: 9 },
    "CR then LF": { text: "data: a\r\r\ndata: b\r\r", cutAfterFirst: 10 },
    "comment-only": { text: ": ping\n\ndata: b\n\n", cutAfterFirst: 8 },
  };
  for (const [form, { text, cutAfterFirst }] of Object.entries(forms)) {
    it(`cuts right after the first event's ${form} line end on a stream sent byte by byte`, async () => {
      const upstream = await startScriptedUpstream(200, SSE, byteSteps(text), { hold: true });
      const sink = new MemorySink();
      const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 1 })], sink);

      const result = await streamFrom(`${proxy.url}/v1/stream`);

      expect(result.error).toBeNull();
      expect(result.text).toBe(text.slice(0, cutAfterFirst));
      expect(sink.ofKind("OPERATION_FAILED")[0]?.relayed_events).toBe(1);
    });
  }

  it("cuts a stream of exactly N events, even when its last CR is its last byte", async () => {
    const upstream = await startScriptedUpstream(200, SSE, ["data: a\r\r", "data: b\r", "\r"]);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 2 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect(result.text).toBe("data: a\r\rdata: b\r\r");
    expect(sink.kinds()).toEqual(["OPERATION_OBSERVED", "FAULT_INJECTED", "OPERATION_FAILED"]);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_stream_truncated",
      relayed_events: 2,
    });
  });

  it("after_events 0 cuts right after the headers", async () => {
    const upstream = await startScriptedUpstream(200, SSE, FOUR_EVENTS, { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 0 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect([result.status, result.text, result.complete]).toEqual([200, "", true]);
    expect(result.headers["content-type"]).toBe("text/event-stream");
    expect(await upstream.cancelled[0]).toBe(true);
    expect(sink.ofKind("OPERATION_FAILED")[0]?.relayed_events).toBe(0);
  });

  it("after_bytes 0 cuts any body right after the headers; relayed_events is null when it is not a stream", async () => {
    const upstream = await startScriptedUpstream(
      200,
      { "Content-Type": "application/json" },
      ['{"a":', "1}"],
      {
        hold: true,
      },
    );
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterBytes: 0 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/thing`);

    expect([result.status, result.text, result.complete]).toEqual([200, "", true]);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ after_bytes: 0 });
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({ status_code: 200, relayed_events: null });
  });

  it("after_bytes counts the body bytes of a Content-Length upstream and re-frames the cut response as chunked", async () => {
    const body = '{"id":"chatcmpl-1","choices":[{"message":{"content":"hello"}}]}';
    const upstream = await startScriptedUpstream(
      200,
      { "Content-Type": "application/json", "Content-Length": String(body.length) },
      [body.slice(0, 7), body.slice(7)],
    );
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterBytes: 12 })], sink);

    const raw = await rawGet(proxy.url, "/v1/x");

    expect(raw.head.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(raw.head.toLowerCase()).not.toContain("content-length");
    expect(dechunk(raw.body)).toEqual({ text: body.slice(0, 12), terminated: true });
  });

  it("after_bytes counts the raw bytes of a gzip-encoded body, before any decoding", async () => {
    const plain = "data: x\n\n".repeat(200);
    const gzipped = gzipSync(plain);
    const steps: Step[] = [gzipped.subarray(0, 10), gzipped.subarray(10, 25), gzipped.subarray(25)];
    const upstream = await startScriptedUpstream(
      200,
      { "Content-Type": "text/event-stream", "Content-Encoding": "gzip" },
      steps,
      { hold: true },
    );
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterBytes: 17 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect(result.headers["content-encoding"]).toBe("gzip");
    expect(result.body.equals(gzipped.subarray(0, 17))).toBe(true);
    expect(await upstream.cancelled[0]).toBe(true);
  });
});
