import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { MemorySink, startFaultProxy, startScriptedUpstream, streamFrom } from "../helpers/fault-proxy.js";
import { send } from "../helpers/proxy-client.js";
import { startUpstream } from "../helpers/proxy-harness.js";

const SSE = { "Content-Type": "text/event-stream" };

describe("schema-2 stream evidence without a fault", () => {
  it("records how many events an event stream relayed", async () => {
    const upstream = await startScriptedUpstream(200, SSE, [
      ": hello\n\n",
      "data: 1\r\n\r\n",
      "data: 2\r",
      "\r",
    ]);
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`);

    expect(result.complete).toBe(true);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([
      {
        kind: "OPERATION_SUCCEEDED",
        operation_id: expect.any(String),
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        status_code: 200,
        duration_ms: expect.any(Number),
        fault_related: false,
        relayed_events: 3,
        closed_by_client: false,
      },
    ]);
  });

  it("records relayed_events null for a response that is not an event stream", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [], sink);

    await send(`${proxy.url}/x`);

    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({
      relayed_events: null,
      closed_by_client: false,
    });
  });

  it("records an event stream the workload closes as a success closed by the client", async () => {
    const upstream = await startScriptedUpstream(200, SSE, ["data: 1\n\n", "data: 2\n\n"], { hold: true });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`, {
      giveUpWhen: (received) => received === "data: 1\n\ndata: 2\n\n",
    });

    expect(result.text).toBe("data: 1\n\ndata: 2\n\n");
    expect(await upstream.cancelled[0]).toBe(true);
    expect(sink.kinds()).toEqual(["OPERATION_OBSERVED", "OPERATION_SUCCEEDED"]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({
      status_code: 200,
      relayed_events: 2,
      closed_by_client: true,
    });
  });

  it("records client_disconnected without a status when the workload left before the stream's headers arrived", async () => {
    // The headers come late: the proxy, still waiting for them, learns first that the workload left.
    const upstream = await startScriptedUpstream(200, SSE, ["data: 1\n\n"], {
      hold: true,
      headersAfterMs: 300,
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [], sink);

    const result = await streamFrom(`${proxy.url}/v1/stream`, {
      giveUpWhen: eventually(() => upstream.hits.length === 1, { what: "the request reached the upstream" }),
    });

    expect(result.error?.message).toBe("gave up");
    expect(await upstream.cancelled[0]).toBe(true);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_disconnected",
      status_code: null,
      relayed_events: null,
    });
  });
});
