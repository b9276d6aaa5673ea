import { request as httpRequest } from "node:http";
import { performance } from "node:perf_hooks";
import { describe, expect, it, vi } from "vitest";
import { jitterDraw, seedFromRunId } from "../../src/faults/jitter.js";
import { startProxy } from "../../src/proxy/server.js";
import type { Fault } from "../../src/scenario/types.js";
import { beforeDeadline, eventually } from "../helpers/eventually.js";
import { MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  onCleanup,
  SCHEMA_1_PROXY,
  schedule,
  startTestProxy,
  startUpstream,
} from "../helpers/proxy-harness.js";

/**
 * Fakes the global timers (the latency wait is one) for the rest of the test; sockets, and the
 * waits of `eventually`, stay real.
 */
function fakeTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  onCleanup(() => {
    vi.useRealTimers();
  });
}

describe("http_latency", () => {
  it("waits latency_ms, forwards, and records the tolerated success as fault-related", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(150, schedule(1)), sink);

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
    fakeTimers();
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(200, schedule(1)), sink);

    const request = httpRequest(`${proxy.url}/slow`, { agent: false });
    request.on("error", () => {});
    request.end();
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    expect(vi.getTimerCount()).toBe(1); // the latency wait
    request.destroy();

    await eventually(() => sink.ofKind("OPERATION_FAILED").length === 1);
    // The wait is gone, so nothing is left that could forward the request later.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(300);

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
    const sink = new LegacyMemorySink();
    // Far longer than the test may run: only the retry can end the wait.
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(600_000, schedule(1)), sink);

    const first = sendWithNodeHttp(`${proxy.url}/customer/1?page=2`, { method: "POST", body: '{"q":1}' });
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    const second = await send(`${proxy.url}/customer/1?page=2`, { method: "POST", body: '{"q":1}' });
    const firstOutcome = await beforeDeadline(first, { what: "the held request's end" });

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
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(20, schedule(1)), sink);

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

  it("holds a request whose latency_ms exceeds the longest single Node timer for its whole latency_ms", async () => {
    fakeTimers();
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(3_000_000_000, schedule(1)), sink);

    const outcome = sendWithNodeHttp(`${proxy.url}/slow`);
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    // Node runs a longer timer after 1 ms; the wait must not end before latency_ms.
    await vi.advanceTimersByTimeAsync(3_000_000_000 - 1);
    expect(vi.getTimerCount()).toBe(1);
    expect(upstream.hits).toHaveLength(0);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);

    await vi.advanceTimersByTimeAsync(1);
    const response = await beforeDeadline(outcome, { what: "the delayed response" });

    expect(response).toMatchObject({ response: { status: 200 } });
    expect(upstream.hits).toHaveLength(1);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toMatchObject([{ status_code: 200, fault_related: true }]);
  });

  it("gives up a request held longer than the longest single Node timer when the proxy closes", async () => {
    fakeTimers();
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.latency(3_000_000_000, schedule(1)), sink);

    const outcome = sendWithNodeHttp(`${proxy.url}/slow`);
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    await proxy.close();

    expect("error" in (await outcome)).toBe(true);
    expect(upstream.hits).toHaveLength(0);
    expect(sink.ofKind("OPERATION_FAILED")).toMatchObject([
      { failure_kind: "client_disconnected", status_code: null },
    ]);
  });

  it("ends pending waits on close: the timer is cleared, the workload's connection is ended, nothing is forwarded", async () => {
    fakeTimers();
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startProxy({
      upstreamBaseUrl: upstream.url,
      faults: [legacyFaults.latency(60_000, schedule(1))],
      sink,
      ...SCHEMA_1_PROXY,
    });
    onCleanup(() => proxy.close());

    const outcome = sendWithNodeHttp(`${proxy.url}/slow`);
    await eventually(() => sink.ofKind("FAULT_INJECTED").length === 1);
    expect(vi.getTimerCount()).toBe(1);
    await beforeDeadline(proxy.close(), { what: "closing the proxy" });

    expect(vi.getTimerCount()).toBe(0);
    expect("error" in (await outcome)).toBe(true);
    expect(sink.ofKind("OPERATION_FAILED")).toMatchObject([
      { failure_kind: "client_disconnected", status_code: null },
    ]);
    expect(upstream.hits).toHaveLength(0);
  });
});

describe("http_latency jitter_ms (schema 2)", () => {
  const jittered = (seed: number): Fault => ({
    id: "slow",
    dependency: "llm",
    target: { kind: "http", method: null, path: "/*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1, 2, 3] },
    expect: "recover",
    type: "http_latency",
    latencyMs: 40,
    jitterMs: 60,
    jitterSeed: seed,
  });

  async function delays(seed: number): Promise<{ drawn: number[]; took: number[] }> {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startFaultProxy(upstream.url, [jittered(seed)], sink);
    const took: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      expect((await send(`${proxy.url}/slow`)).status).toBe(200);
      took.push(performance.now() - started);
    }
    const injected = sink.ofKind("FAULT_INJECTED");
    for (const event of injected) {
      expect(Object.keys(event.parameters)).toEqual(["latency_ms", "jitter_ms", "jitter_seed", "delay_ms"]);
      expect(event.parameters).toMatchObject({ latency_ms: 40, jitter_ms: 60, jitter_seed: seed });
    }
    return { drawn: injected.map((event) => event.parameters.delay_ms as number), took };
  }

  it("waits latency_ms plus a delay drawn from 0 to jitter_ms, recorded as delay_ms, the same for the same seed", async () => {
    const first = await delays(7);
    const again = await delays(7);
    expect(again.drawn).toEqual(first.drawn);
    expect(first.drawn.map((delay, n) => delay - 40 - jitterDraw(7, "slow", n + 1, 60))).toEqual([0, 0, 0]);
    for (const [n, delay] of first.drawn.entries()) {
      expect(delay).toBeGreaterThanOrEqual(40);
      expect(delay).toBeLessThanOrEqual(100);
      expect(first.took[n]).toBeGreaterThanOrEqual(delay - 5);
    }
  });

  it("draws from a seed the run id gives when the scenario sets none, and each seed its own delays", () => {
    expect(seedFromRunId("20261201T000000Z-00000000")).toBe(seedFromRunId("20261201T000000Z-00000000"));
    expect(seedFromRunId("20261201T000000Z-00000000")).not.toBe(seedFromRunId("20261201T000000Z-00000001"));
    const draws = (seed: number) => Array.from({ length: 20 }, (_, n) => jitterDraw(seed, "slow", n + 1, 60));
    expect(draws(1)).not.toEqual(draws(2));
    expect(Math.max(...draws(1), ...draws(2))).toBeLessThanOrEqual(60);
    expect(Math.min(...draws(1), ...draws(2))).toBeGreaterThanOrEqual(0);
  });
});
