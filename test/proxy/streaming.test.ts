import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { beforeDeadline, eventually } from "../helpers/eventually.js";
import { send } from "../helpers/proxy-client.js";
import { LegacyMemorySink, onCleanup, startTestProxy, startUpstream } from "../helpers/proxy-harness.js";

async function streamingClient(url: string) {
  const agent = new Agent();
  onCleanup(() => agent.destroy());
  return request(url, { dispatcher: agent });
}

describe("text/event-stream relay", () => {
  it("delivers the first event to the workload while the upstream is still streaming", async () => {
    let releaseUpstream = () => {};
    const released = new Promise<void>((resolve) => {
      releaseUpstream = resolve;
    });
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache",
      });
      response.write("data: one\n\n");
      void released.then(() => response.end("data: two\n\n"));
    });
    onCleanup(() => releaseUpstream());
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    // The upstream never ends on its own: a proxy that buffered the stream would hang here.
    const response = await beforeDeadline(streamingClient(`${proxy.url}/stream`), {
      what: "the response head",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    const chunks = response.body[Symbol.asyncIterator]();
    const first = await beforeDeadline(chunks.next(), { what: "the first event" });
    expect(Buffer.from(first.value as Buffer).toString()).toBe("data: one\n\n");
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);

    releaseUpstream();
    let rest = "";
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
      rest += Buffer.from(next.value as Buffer).toString();
    }
    expect(rest).toBe("data: two\n\n");
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toMatchObject([{ status_code: 200, fault_related: false }]);
  });

  it("relays a stream larger than the buffering limit", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      for (let i = 0; i < 11; i++) response.write(chunk);
      response.end();
    });
    const proxy = await startTestProxy(upstream.url);

    const response = await send(`${proxy.url}/big-stream`);

    expect(response.status).toBe(200);
    expect(response.body.length).toBe(11 * 1024 * 1024);
  });

  it("records upstream_stream_interrupted and cuts the workload's response when the upstream breaks midway", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: partial\n\n");
      setTimeout(() => response.socket?.destroy(), 50);
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const response = await streamingClient(`${proxy.url}/stream`);
    const received = await response.body.text().then(
      () => "completed",
      (error: unknown) => (error instanceof Error ? "cut" : "unknown"),
    );

    expect(received).toBe("cut");
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: expect.any(String),
        fingerprint: expect.any(String),
        failure_kind: "upstream_stream_interrupted",
        status_code: 200,
        fault_related: false,
      },
    ]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);
  });

  it("stops the upstream stream and records client_disconnected when the workload goes away midway", async () => {
    let upstreamClosed = false;
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: first\n\n");
      const ticker = setInterval(() => response.write("data: tick\n\n"), 20);
      response.on("close", () => {
        clearInterval(ticker);
        upstreamClosed = true;
      });
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const response = await streamingClient(`${proxy.url}/stream`);
    await response.body[Symbol.asyncIterator]().next();
    response.body.destroy();

    await eventually(() => upstreamClosed && sink.ofKind("OPERATION_FAILED").length === 1);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_disconnected",
      status_code: 200,
      fault_related: false,
    });
  });
});
