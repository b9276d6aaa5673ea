import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ArmableHttpFault } from "../../src/faults/registry.js";
import { startProxy } from "../../src/proxy/server.js";
import type { Fault, Trigger } from "../../src/scenario/types.js";
import type { TriggerClock } from "../../src/triggers/index.js";
import { MemorySink } from "../helpers/fault-proxy.js";
import { send } from "../helpers/proxy-client.js";
import { onCleanup, startUpstream } from "../helpers/proxy-harness.js";

const BASE = {
  dependency: "llm",
  target: { kind: "http", method: null, path: "/v1/*" },
  expect: "recover",
} as const;

function rateLimit(id: string, trigger: Trigger, retryAfterSeconds: number | "auto" = 1): Fault {
  return { ...BASE, id, type: "http_rate_limit", trigger, retryAfterSeconds };
}

async function proxyWith(upstreamUrl: string, faults: Fault[], clock: TriggerClock, sink: MemorySink) {
  const proxy = await startProxy({
    upstreamBaseUrl: upstreamUrl,
    faults: faults as ArmableHttpFault[],
    sink,
    dependency: "llm",
    triggerClock: clock,
  });
  onCleanup(() => proxy.close());
  return proxy;
}

/** The ordinals (1-based, in observation order) of the operations a fault acted on. */
function injectedOrdinals(sink: MemorySink, faultId: string): number[] {
  const observed = sink.ofKind("OPERATION_OBSERVED").map((event) => event.operation_id);
  return sink
    .ofKind("FAULT_INJECTED")
    .filter((event) => event.fault_id === faultId)
    .map((event) => observed.indexOf(event.operation_id) + 1);
}

const frozen: TriggerClock = { now: () => 0, observedAt: () => 0, workloadStartedAt: () => 0 };

function allOk(count: number, path = "/v1/x"): (url: string) => Promise<number[]> {
  return async (url) =>
    (await Promise.all(Array.from({ length: count }, (_, i) => send(`${url}${path}?i=${i}`)))).map(
      (response) => response.status,
    );
}

describe("quotas and outages through a real proxy", () => {
  it("lets exactly the quota through among 200 concurrent requests and rate-limits the rest with Retry-After auto", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await proxyWith(
      upstream.url,
      [rateLimit("quota", { kind: "quota", unit: "requests", limit: 37, perMs: 10_000 }, "auto")],
      frozen,
      sink,
    );
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => send(`${proxy.url}/v1/x?i=${i}`)),
    );
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(163);
    expect(upstream.hits).toHaveLength(37);
    expect(new Set(limited.map((response) => response.headers["retry-after"]))).toEqual(new Set(["10"]));
    expect(injectedOrdinals(sink, "quota")).toEqual(Array.from({ length: 163 }, (_, i) => 38 + i));
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ retry_after_seconds: 10 });
  });

  it("selects exactly the requests observed inside an outage, whatever their concurrency", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    // Each decision reads the clock once: request k is observed at k - 1 ms.
    let tick = -1;
    const clock: TriggerClock = { now: () => tick, observedAt: () => ++tick, workloadStartedAt: () => 0 };
    const proxy = await proxyWith(
      upstream.url,
      [rateLimit("down", { kind: "outage", startMs: 50, durationMs: 100 })],
      clock,
      sink,
    );
    const statuses = await allOk(200)(proxy.url);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100);
    expect(injectedOrdinals(sink, "down")).toEqual(Array.from({ length: 100 }, (_, i) => 51 + i));
  });

  it("selects nothing before the workload started", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const clock: TriggerClock = { now: () => 10, observedAt: () => 10, workloadStartedAt: () => null };
    const proxy = await proxyWith(
      upstream.url,
      [rateLimit("down", { kind: "outage", startMs: 0, durationMs: 1000 })],
      clock,
      sink,
    );
    expect(await allOk(5)(proxy.url)).toEqual([200, 200, 200, 200, 200]);
    expect(sink.ofKind("FAULT_INJECTED")).toHaveLength(0);
  });

  it("counts the tokens of let-through answers, JSON and gzip, and selects every request once the window is full", async () => {
    let answered = 0;
    const upstream = await startUpstream((_request, response) => {
      answered += 1;
      const body = JSON.stringify({
        choices: [],
        usage: { prompt_tokens: 6, completion_tokens: 4, total_tokens: 10 },
      });
      if (answered % 2 === 0) {
        response
          .writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" })
          .end(gzipSync(body));
      } else {
        response.writeHead(200, { "Content-Type": "application/json" }).end(body);
      }
    });
    const sink = new MemorySink();
    const proxy = await proxyWith(
      upstream.url,
      [rateLimit("tokens", { kind: "quota", unit: "tokens", limit: 100, perMs: 60_000 })],
      frozen,
      sink,
    );
    // Ten concurrent requests are all decided before any usage arrives: all pass (100 tokens).
    expect(await allOk(10)(proxy.url)).toEqual(Array(10).fill(200));
    const statuses = await allOk(200)(proxy.url);
    expect(statuses.filter((status) => status === 429)).toHaveLength(200);
    expect(upstream.hits).toHaveLength(10);
  });

  it("counts an Anthropic stream's usage as it arrives", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":30,"output_tokens":1}}}\n\n',
      );
      response.end(
        'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":20}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
      );
    });
    const sink = new MemorySink();
    const proxy = await proxyWith(
      upstream.url,
      [rateLimit("tokens", { kind: "quota", unit: "tokens", limit: 100, perMs: 60_000 })],
      frozen,
      sink,
    );
    // 50 tokens per answer: two sequential answers fill the window, the third request is selected.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await send(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("lets a second fault act on what a quota lets through, and never counts the quota's own selections", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await proxyWith(
      upstream.url,
      [
        rateLimit("quota", { kind: "quota", unit: "requests", limit: 2, perMs: 10_000 }),
        {
          ...BASE,
          id: "err",
          type: "http_error",
          statusCode: 503,
          trigger: { kind: "occurrence_schedule", occurrences: [1] },
        },
      ],
      frozen,
      sink,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(`${proxy.url}/v1/x`)).status);
    expect(statuses).toEqual([503, 200, 429, 429]);
  });
});
