import { describe, expect, it } from "vitest";
import type { LegacyEventType } from "../../src/events/legacy/types.js";
import { send } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  schedule,
  startTestProxy,
  startUpstream,
  target,
} from "../helpers/proxy-harness.js";

const TERMINAL: LegacyEventType[] = ["OPERATION_SUCCEEDED", "OPERATION_FAILED"];

function injectedOrdinals(sink: LegacyMemorySink): number[] {
  const observed = sink.ofKind("OPERATION_OBSERVED").map((event) => event.operation_id);
  return sink.ofKind("FAULT_INJECTED").map((event) => observed.indexOf(event.operation_id) + 1);
}

describe("selection under concurrency", () => {
  it("injects exactly scheduled occurrences 50 and 120 of 200 concurrent matching requests, in recorder order", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(
      upstream.url,
      legacyFaults.error(503, schedule(50, 120), target("/customer/*")),
      sink,
    );

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => send(`${proxy.url}/customer/${i}`)),
    );

    expect(responses.filter((response) => response.status === 503)).toHaveLength(2);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(198);
    expect(upstream.hits).toHaveLength(198);
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(200);
    expect(injectedOrdinals(sink)).toEqual([50, 120]);
    for (const observed of sink.ofKind("OPERATION_OBSERVED")) {
      expect(sink.kindsOf(observed.operation_id).filter((kind) => TERMINAL.includes(kind))).toHaveLength(1);
    }
    // FAULT_INJECTED directly follows its OPERATION_OBSERVED: selection is one uninterrupted step.
    const kinds = sink.payloads();
    for (const injected of sink.ofKind("FAULT_INJECTED")) {
      const index = kinds.findIndex((payload) => payload.kind === "FAULT_INJECTED" && payload === injected);
      expect(kinds[index - 1]).toMatchObject({
        kind: "OPERATION_OBSERVED",
        operation_id: injected.operation_id,
      });
    }
  });

  it("selects the golden probability occurrences 2, 4, 8, 9, 10 among concurrent requests", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const fault = legacyFaults.disconnect({
      kind: "seeded_probability",
      probability: 0.5,
      probabilityMillionths: 500_000,
      seed: 10n,
      window: { startOccurrence: 1, endOccurrence: 10 },
    });
    const proxy = await startTestProxy(upstream.url, fault, sink);

    await Promise.all(Array.from({ length: 30 }, (_, i) => send(`${proxy.url}/p/${i}`).catch(() => null)));

    expect(injectedOrdinals(sink)).toEqual([2, 4, 8, 9, 10]);
    expect(upstream.hits).toHaveLength(25);
  });

  it("does not count requests outside the target", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(
      upstream.url,
      legacyFaults.error(500, schedule(2), target("/customer/*", "get")),
      sink,
    );

    await send(`${proxy.url}/customer/1`, { method: "POST" });
    await send(`${proxy.url}/orders/1`);
    await send(`${proxy.url}/customer/1`);
    const second = await send(`${proxy.url}/customer/2?x=1`);

    expect(second.status).toBe(500);
    expect(injectedOrdinals(sink)).toEqual([4]);
  });
});

describe("retry correlation through the proxy", () => {
  it("with schedule [2, 3] links occurrence 3 to 2, and each failure needs its own successful retry", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.rateLimit(1, schedule(2, 3)), sink);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(`${proxy.url}/customer/1`)).status);

    expect(statuses).toEqual([200, 429, 429, 200, 200]);
    const ids = sink.ofKind("OPERATION_OBSERVED").map((event) => event.operation_id);
    expect(
      sink
        .ofKind("RETRY_OBSERVED")
        .map((retry) => [retry.operation_id, retry.retry_of_operation_id, retry.attempt]),
    ).toEqual([
      [ids[2], ids[1], 2],
      [ids[3], ids[1], 3],
      [ids[4], ids[2], 2],
    ]);
    expect(sink.kindsOf(ids[2] ?? "")).toEqual([
      "OPERATION_OBSERVED",
      "RETRY_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_FAILED",
    ]);
    expect(sink.ofKind("OPERATION_SUCCEEDED").map((success) => success.fault_related)).toEqual([
      false,
      true,
      true,
    ]);
  });

  it("never treats a request with another fingerprint as a retry", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(503, schedule(1)), sink);

    await send(`${proxy.url}/customer/1`, { method: "POST", body: '{"a":1}' });
    await send(`${proxy.url}/customer/1`, { method: "POST", body: '{"a":2}' });
    await send(`${proxy.url}/customer/1?a=1`, { method: "POST", body: '{"a":1}' });
    await send(`${proxy.url}/customer/1`, { method: "PUT", body: '{"a":1}' });

    expect(sink.ofKind("RETRY_OBSERVED")).toEqual([]);
    await send(`${proxy.url}/customer/1`, { method: "POST", body: '{"a":1}' });
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("does not count an oversized request nor make it a retry", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(503, schedule(1, 2)), sink);
    const big = Buffer.alloc(10 * 1024 * 1024 + 10);

    expect((await send(`${proxy.url}/u`, { method: "POST", body: "x" })).status).toBe(503);
    expect((await send(`${proxy.url}/u`, { method: "POST", body: big })).status).toBe(413);
    expect((await send(`${proxy.url}/u`, { method: "POST", body: "y" })).status).toBe(503);
    expect((await send(`${proxy.url}/u`, { method: "POST", body: "x" })).status).toBe(200);

    expect(injectedOrdinals(sink)).toEqual([1, 3]);
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });
});
