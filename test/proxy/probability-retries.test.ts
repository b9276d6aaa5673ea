import { describe, expect, it } from "vitest";
import { send } from "../helpers/proxy-client.js";
import { LegacyMemorySink, legacyFaults, startTestProxy, startUpstream } from "../helpers/proxy-harness.js";

describe("seeded probability window in the proxy", () => {
  it("a retry is counted like any request and can itself be selected; its failure queues behind the older one", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    // Seed 0, p 0.9 selects 1, 2 and 3 of a window 1–3 (see probability-vectors.test.ts).
    const fault = legacyFaults.error(503, {
      kind: "seeded_probability",
      probability: 0.9,
      probabilityMillionths: 900_000,
      seed: 0n,
      window: { startOccurrence: 1, endOccurrence: 3 },
    });
    const proxy = await startTestProxy(upstream.url, fault, sink);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(`${proxy.url}/customer/1`)).status);

    expect(statuses).toEqual([503, 503, 503, 200, 200]);
    expect(upstream.hits).toHaveLength(2);
    const observed = sink.ofKind("OPERATION_OBSERVED").map((event) => event.operation_id);
    const [first, second, third, fourth, fifth] = observed;
    expect(sink.ofKind("FAULT_INJECTED").map((event) => event.operation_id)).toEqual([first, second, third]);
    // Every later request retries the oldest unresolved failure until a success resolves it.
    expect(
      sink
        .ofKind("RETRY_OBSERVED")
        .map((event) => [event.operation_id, event.retry_of_operation_id, event.attempt]),
    ).toEqual([
      [second, first, 2],
      [third, first, 3],
      [fourth, first, 4],
      [fifth, second, 2],
    ]);
    expect(
      sink.ofKind("OPERATION_SUCCEEDED").map((event) => [event.operation_id, event.fault_related]),
    ).toEqual([
      [fourth, true],
      [fifth, true],
    ]);
  });

  it("never selects occurrences before the window's start or after its end", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    // Probability 1 selects every occurrence inside the window 3–4, and nothing else.
    const fault = legacyFaults.malformedJson({
      kind: "seeded_probability",
      probability: 1,
      probabilityMillionths: 1_000_000,
      seed: 18_446_744_073_709_551_615n,
      window: { startOccurrence: 3, endOccurrence: 4 },
    });
    const proxy = await startTestProxy(upstream.url, fault, sink);
    for (let i = 1; i <= 6; i++) await send(`${proxy.url}/orders/${i}`);
    const observed = sink.ofKind("OPERATION_OBSERVED").map((event) => event.operation_id);
    expect(sink.ofKind("FAULT_INJECTED").map((event) => observed.indexOf(event.operation_id) + 1)).toEqual([
      3, 4,
    ]);
  });
});
