import { describe, expect, it } from "vitest";
import {
  faults,
  MemorySink,
  startFaultProxy,
  startScriptedUpstream,
  streamFrom,
} from "../helpers/fault-proxy.js";
import { send } from "../helpers/proxy-client.js";
import { startUpstream } from "../helpers/proxy-harness.js";

const SSE = { "Content-Type": "text/event-stream" };

describe("a mid-stream fault that cannot act", () => {
  it("relays a non-2xx upstream response untouched and records upstream_status before the terminal event", async () => {
    const upstream = await startScriptedUpstream(503, SSE, ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"]);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.reset({ afterEvents: 1 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect([result.status, result.text, result.complete]).toEqual([
      503,
      "data: 1\n\ndata: 2\n\ndata: 3\n\n",
      true,
    ]);
    expect(sink.kinds()).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "FAULT_NOT_APPLIED",
      "OPERATION_FAILED",
    ]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]).toEqual({
      kind: "FAULT_NOT_APPLIED",
      operation_id: sink.ofKind("OPERATION_OBSERVED")[0]?.operation_id,
      fault_id: "f1",
      reason: "upstream_status",
    });
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "upstream_http_error",
      status_code: 503,
      fault_related: true,
      relayed_events: 3,
    });
  });

  it("relays a response that is not an event stream untouched under after_events: not_a_stream", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 1 })], sink);

    const response = await send(`${proxy.url}/v1/chat`);

    expect([response.status, response.text, response.headers["content-length"]]).toEqual([
      200,
      '{"ok":true}',
      "11",
    ]);
    expect(sink.kinds()).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "FAULT_NOT_APPLIED",
      "OPERATION_SUCCEEDED",
    ]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("not_a_stream");
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ status_code: 200, relayed_events: null });
  });

  it("relays in full a stream that ends before its cut point: ended_before_cut", async () => {
    const upstream = await startScriptedUpstream(200, SSE, ["data: 1\n\n", "data: 2\n\n"]);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(
      upstream.url,
      [faults.errorEvent({ afterEvents: 3 }, "openai")],
      sink,
    );

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect([result.text, result.complete]).toEqual(["data: 1\n\ndata: 2\n\n", true]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("ended_before_cut");
    expect(sink.kinds().slice(-2)).toEqual(["FAULT_NOT_APPLIED", "OPERATION_SUCCEEDED"]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({
      status_code: 200,
      fault_related: true,
      relayed_events: 2,
      closed_by_client: false,
    });
  });

  it("relays in full a body shorter than after_bytes: ended_before_cut", async () => {
    const upstream = await startScriptedUpstream(200, { "Content-Type": "application/json" }, [
      '{"a":',
      "1}",
    ]);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.reset({ afterBytes: 8 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/x`);

    expect([result.text, result.complete]).toEqual(['{"a":1}', true]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("ended_before_cut");
  });

  it("records upstream_failed when the upstream cannot be reached, before the proxy_error", async () => {
    const sink = new MemorySink();
    const proxy = await startFaultProxy(
      // A privileged port nothing listens on; a port found free and closed again could be given
      // to the proxy itself when it listens.
      "http://127.0.0.1:9",
      [faults.truncate({ afterEvents: 1 })],
      sink,
    );

    const response = await send(`${proxy.url}/v1/stream`);

    expect(response.status).toBe(502);
    expect(sink.kinds()).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "FAULT_NOT_APPLIED",
      "OPERATION_FAILED",
    ]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("upstream_failed");
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "proxy_error",
      status_code: 502,
    });
  });

  it("records upstream_failed when the upstream breaks the stream before the cut point", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, SSE);
      response.write("data: 1\n\n");
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.truncate({ afterEvents: 3 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect(result.error).not.toBeNull();
    expect(result.text).toBe("data: 1\n\n");
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("upstream_failed");
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "upstream_stream_interrupted",
      status_code: 200,
      relayed_events: 1,
    });
  });

  it("records ended_before_cut when the workload closes the stream before the cut point", async () => {
    const upstream = await startScriptedUpstream(200, SSE, ["data: 1\n\n"], { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.reset({ afterEvents: 5 })], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`, {
      giveUpWhen: (received) => received === "data: 1\n\n",
    });

    expect(result.text).toBe("data: 1\n\n");
    expect(await upstream.cancelled[0]).toBe(true);
    expect(sink.kinds().slice(-2)).toEqual(["FAULT_NOT_APPLIED", "OPERATION_SUCCEEDED"]);
    expect(sink.ofKind("FAULT_NOT_APPLIED")[0]?.reason).toBe("ended_before_cut");
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({
      relayed_events: 1,
      closed_by_client: true,
    });
  });
});
