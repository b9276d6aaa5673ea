import { describe, expect, it } from "vitest";
import { faults, MemorySink, rawGet, startFaultProxy } from "../helpers/fault-proxy.js";
import { send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import { startUpstream } from "../helpers/proxy-harness.js";

describe("http_response_lost", () => {
  it("lets the upstream process the request in full, then closes the workload's connection without a byte", async () => {
    let tickets = 0;
    const upstream = await startUpstream((_request, response) => {
      tickets += 1;
      response.writeHead(201, { "Content-Type": "application/json" }).end(`{"ticket":${tickets}}`);
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.responseLost()], sink);

    const lost = await sendWithNodeHttp(`${proxy.url}/tickets`, { method: "POST", body: '{"title":"x"}' });
    const retried = await send(`${proxy.url}/tickets`, { method: "POST", body: '{"title":"x"}' });

    expect("error" in lost).toBe(true);
    expect(retried.status).toBe(201);
    expect(retried.text).toBe('{"ticket":2}');
    expect(tickets).toBe(2);
    expect(upstream.hits.map((hit) => hit.body.toString())).toEqual(['{"title":"x"}', '{"title":"x"}']);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({});
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: expect.any(String),
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        failure_kind: "injected_response_lost",
        status_code: null,
        fault_related: true,
        retry_after_ms: null,
        upstream_status: 201,
        rpc_error_code: null,
        relayed_events: null,
      },
    ]);
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("sends not a single byte to the workload", async () => {
    const upstream = await startUpstream();
    const proxy = await startFaultProxy(upstream.url, [faults.responseLost()], new MemorySink());

    const raw = await rawGet(proxy.url, "/tickets");

    expect(raw.head).toBe("");
    expect(upstream.hits).toHaveLength(1);
  });

  it("records the upstream's own error status too: the exchange happened", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(500).end("boom");
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.responseLost()], sink);

    await sendWithNodeHttp(`${proxy.url}/tickets`, { method: "POST" });

    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_response_lost",
      status_code: null,
      upstream_status: 500,
    });
  });

  it("answers an upstream transport failure as usual and records the fault as not applied", async () => {
    const upstream = await startUpstream((request) => {
      request.socket.destroy();
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [faults.responseLost()], sink);

    const response = await send(`${proxy.url}/tickets`, { method: "POST" });

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
});
