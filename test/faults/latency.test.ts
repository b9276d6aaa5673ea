import { request as httpRequest } from "node:http";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { startProxy } from "../../src/proxy/server.js";
import { send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import {
  eventually,
  faults,
  MemorySink,
  onCleanup,
  schedule,
  sleep,
  startTestProxy,
  startUpstream,
} from "../helpers/proxy-harness.js";

describe("http_latency", () => {
  it("waits latency_ms, forwards, and records the tolerated success as fault-related", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startTestProxy(upstream.url, faults.latency(150, schedule(1)), sink);

    const started = performance.now();
    const response = await send(`${proxy.url}/slow`);
    const elapsed = performance.now() - started;

    expect(response.status).toBe(200);
    expect(response.text).toBe('{"ok":true}');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(upstream.hits).toHaveLength(1);
    const [injected] = sink.ofKind("FAULT_INJECTED");
    expect(injected?.parameters).toEqual({ latency_ms: 150 });
    const [success] = sink.ofKind("OPERATION_SUCCEEDED");
    expect(success).toMatchObject({
      operation_id: injected?.operation_id,
      status_code: 200,
      fault_related: true,
    });
    expect(success?.duration_ms).toBeGreaterThanOrEqual(140);
  });

  it("fails a waiting operation with client_disconnected when the workload hangs up, and never forwards it", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startTestProxy(upstream.url, faults.latency(200, schedule(1)), sink);

    const request = httpRequest(`${proxy.url}/slow`, { agent: false });
    request.on("error", () => {});
    request.end();
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    request.destroy();

    await eventually(() => sink.ofKind("OPERATION_FAILED").length === 1);
    await sleep(300); // past the latency: the held request must still not be forwarded

    const [injected] = sink.ofKind("FAULT_INJECTED");
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: injected?.operation_id,
        fingerprint: expect.any(String),
        failure_kind: "client_disconnected",
        status_code: null,
        fault_related: true,
      },
    ]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);
    expect(upstream.hits).toHaveLength(0);
  });

  it("fails a waiting operation with client_timeout_inferred when the same request arrives, which is its retry", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startTestProxy(upstream.url, faults.latency(10_000, schedule(1)), sink);

    const first = sendWithNodeHttp(`${proxy.url}/customer/1?page=2`, { method: "POST", body: '{"q":1}' });
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    const started = performance.now();
    const second = await send(`${proxy.url}/customer/1?page=2`, { method: "POST", body: '{"q":1}' });
    const firstOutcome = await first;

    expect(performance.now() - started).toBeLessThan(2_000);
    expect(second.status).toBe(200);
    expect("error" in firstOutcome).toBe(true);
    expect(upstream.hits).toHaveLength(1);

    const [held, retry] = sink.ofKind("OPERATION_OBSERVED").map((observed) => observed.operation_id);
    expect(
      sink
        .payloads()
        .map((payload) => [payload.kind, "operation_id" in payload ? payload.operation_id : null]),
    ).toEqual([
      ["OPERATION_OBSERVED", held],
      ["FAULT_INJECTED", held],
      ["OPERATION_OBSERVED", retry],
      ["OPERATION_FAILED", held],
      ["RETRY_OBSERVED", retry],
      ["OPERATION_SUCCEEDED", retry],
    ]);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_timeout_inferred",
      status_code: null,
      fault_related: true,
    });
    expect(sink.ofKind("RETRY_OBSERVED")[0]).toMatchObject({ retry_of_operation_id: held, attempt: 2 });
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ status_code: 200, fault_related: true });
  });

  it("records a delayed request that then fails upstream as a fault-related failure that later retries can resolve", async () => {
    let calls = 0;
    const upstream = await startUpstream((_request, response) => {
      calls += 1;
      response.writeHead(calls === 1 ? 500 : 200).end("{}");
    });
    const sink = new MemorySink();
    const proxy = await startTestProxy(upstream.url, faults.latency(20, schedule(1)), sink);

    expect((await send(`${proxy.url}/x`)).status).toBe(500);
    expect((await send(`${proxy.url}/x`)).status).toBe(200);

    const [failed] = sink.ofKind("OPERATION_FAILED");
    expect(failed).toMatchObject({
      failure_kind: "upstream_http_error",
      status_code: 500,
      fault_related: true,
    });
    expect(sink.ofKind("RETRY_OBSERVED")[0]).toMatchObject({
      retry_of_operation_id: failed?.operation_id,
      attempt: 2,
    });
  });

  it("keeps holding a request whose latency_ms exceeds the longest single Node timer", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startTestProxy(upstream.url, faults.latency(3_000_000_000, schedule(1)), sink);

    const outcome = sendWithNodeHttp(`${proxy.url}/slow`);
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    await sleep(200);

    expect(upstream.hits).toHaveLength(0);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);
    await proxy.close();
    expect("error" in (await outcome)).toBe(true);
    expect(sink.ofKind("OPERATION_FAILED")).toMatchObject([
      { failure_kind: "client_disconnected", status_code: null },
    ]);
  });

  it("ends pending waits on close: the timer is cleared, the workload's connection is ended, nothing is forwarded", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      faults: [faults.latency(60_000, schedule(1))],
      sink,
    });
    onCleanup(() => proxy.close());

    const outcome = sendWithNodeHttp(`${proxy.url}/slow`);
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    const started = performance.now();
    await proxy.close();

    expect(performance.now() - started).toBeLessThan(1_000);
    expect("error" in (await outcome)).toBe(true);
    expect(sink.ofKind("OPERATION_FAILED")).toMatchObject([
      { failure_kind: "client_disconnected", status_code: null },
    ]);
    expect(upstream.hits).toHaveLength(0);
  });
});
