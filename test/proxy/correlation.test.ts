import { describe, expect, it } from "vitest";
import { RetryCorrelation } from "../../src/events/retry-correlation.js";

describe("retry correlation", () => {
  it("links a new operation to the oldest unresolved fault-related failure of its fingerprint", () => {
    const correlation = new RetryCorrelation();
    expect(correlation.observe("op-1", "fp")).toBeNull();
    correlation.failed("op-1", "fp", true);
    expect(correlation.observe("op-2", "fp")).toEqual({ retryOf: "op-1", attempt: 2 });
  });

  it("numbers the retries of one failure 2, 3, 4 while they keep failing", () => {
    const correlation = new RetryCorrelation();
    correlation.failed("op-1", "fp", true);
    for (const [id, attempt] of [
      ["op-2", 2],
      ["op-3", 3],
      ["op-4", 4],
    ] as const) {
      expect(correlation.observe(id, "fp")).toEqual({ retryOf: "op-1", attempt });
      correlation.failed(id, "fp", false);
    }
    expect(correlation.unresolved("fp")).toEqual(["op-1"]);
  });

  it("with an adjacent schedule [2, 3] makes occurrence 3 a retry of 2 and a new failure, and one success resolves 2 only", () => {
    const correlation = new RetryCorrelation();
    correlation.observe("occ-1", "fp");
    correlation.succeeded("occ-1");
    expect(correlation.observe("occ-2", "fp")).toBeNull();
    correlation.failed("occ-2", "fp", true);
    expect(correlation.observe("occ-3", "fp")).toEqual({ retryOf: "occ-2", attempt: 2 });
    correlation.failed("occ-3", "fp", true);
    expect(correlation.unresolved("fp")).toEqual(["occ-2", "occ-3"]);

    expect(correlation.observe("occ-4", "fp")).toEqual({ retryOf: "occ-2", attempt: 3 });
    correlation.succeeded("occ-4");
    expect(correlation.unresolved("fp")).toEqual(["occ-3"]);

    expect(correlation.observe("occ-5", "fp")).toEqual({ retryOf: "occ-3", attempt: 2 });
    correlation.succeeded("occ-5");
    expect(correlation.unresolved("fp")).toEqual([]);
    expect(correlation.observe("occ-6", "fp")).toBeNull();
  });

  it("keeps the older entry when a retry fails without being fault-related", () => {
    const correlation = new RetryCorrelation();
    correlation.failed("op-1", "fp", true);
    correlation.observe("op-2", "fp");
    correlation.failed("op-2", "fp", false);
    expect(correlation.unresolved("fp")).toEqual(["op-1"]);
  });

  it("resolves exactly one failure per success, even when two retries were in flight for it", () => {
    const correlation = new RetryCorrelation();
    correlation.failed("op-1", "fp", true);
    correlation.failed("op-2", "fp", true);
    expect(correlation.observe("op-3", "fp")?.retryOf).toBe("op-1");
    expect(correlation.observe("op-4", "fp")?.retryOf).toBe("op-1");
    correlation.succeeded("op-3");
    expect(correlation.unresolved("fp")).toEqual(["op-2"]);
    correlation.succeeded("op-4");
    expect(correlation.unresolved("fp")).toEqual(["op-2"]);
  });

  it("never resolves a failure from an operation with another fingerprint", () => {
    const correlation = new RetryCorrelation();
    correlation.failed("op-1", "fp-a", true);
    expect(correlation.observe("op-2", "fp-b")).toBeNull();
    correlation.succeeded("op-2");
    expect(correlation.unresolved("fp-a")).toEqual(["op-1"]);
  });

  it("ignores a success of an operation that was not a retry", () => {
    const correlation = new RetryCorrelation();
    correlation.observe("op-1", "fp");
    correlation.failed("op-2", "fp", true);
    correlation.succeeded("op-1");
    expect(correlation.unresolved("fp")).toEqual(["op-2"]);
  });
});
