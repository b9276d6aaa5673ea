import { describe, expect, it } from "vitest";
import { isTooEarly, retryAfterCheck } from "../../src/checks/retry-after.js";
import { checksConfig } from "../analysis/schema-2/scenarios.js";
import { runBuilder } from "../helpers/events.js";
import { findingsOf, labelOf, retriedAfter } from "./check-runs.js";

const config = checksConfig().retry_after;
const findings = (gapMs: number, retryAfterMs: number | null) =>
  findingsOf("retry_after", retriedAfter(gapMs, retryAfterMs), config);

describe("the retry_after check", () => {
  it.each([
    // [asked for, earliest gap without a finding]: tolerance max(20 ms, 5 %)
    [1000, 950],
    [100, 80],
    [400, 380],
    [20, 0],
    [2000, 1900],
  ])("a response asking for %i ms tolerates a retry from %i ms on, not 1 ms earlier", (asked, earliest) => {
    expect(findings(earliest, asked)).toEqual([]);
    if (earliest > 0) {
      expect(findings(earliest - 1, asked)).toEqual([
        { operation_id: "op-2", failed_operation_id: "op-1", retry_after_ms: asked, gap_ms: earliest - 1 },
      ]);
    }
  });

  it("compares with a fractional tolerance exactly (5 % of 1010 ms is 50.5 ms)", () => {
    expect(isTooEarly(959, 1010)).toBe(true);
    expect(isTooEarly(960, 1010)).toBe(false);
    expect(findings(959, 1010)).toHaveLength(1);
    expect(findings(960, 1010)).toEqual([]);
  });

  it("never finds anything after Retry-After: 0 or a response that asked for nothing", () => {
    expect(findings(0, 0)).toEqual([]);
    expect(findings(0, null)).toEqual([]);
  });

  it("measures from the latest failure of the chain before the retry, not from the first", () => {
    const run = retriedAfter(1000, 1000);
    // op-2 succeeded; a new chain on the same fingerprint: op-3 fails asking for 500 ms, op-4 retries at 100 ms.
    run.at(3000).observed("op-3", "fp-a").injected("op-3").at(3010).failed("op-3", "injected_http_error", {
      retryAfterMs: 500,
    });
    run.at(3110).observed("op-4", "fp-a").retry("op-4", "op-3").succeeded("op-4");
    expect(findingsOf("retry_after", run, config)).toEqual([
      { operation_id: "op-4", failed_operation_id: "op-3", retry_after_ms: 500, gap_ms: 100 },
    ]);
  });

  it("keeps interleaved chains apart: each retry is measured against its own chain", () => {
    const run = runBuilder()
      .setup()
      .at(0)
      .observed("a-1", "fp-a")
      .injected("a-1")
      .at(10)
      .failed("a-1", "injected_rate_limit", { retryAfterMs: 1000 })
      .at(20)
      .observed("b-1", "fp-b")
      .injected("b-1")
      .at(30)
      .failed("b-1", "injected_rate_limit", { retryAfterMs: 100 })
      .at(200)
      .observed("b-2", "fp-b")
      .retry("b-2", "b-1")
      .succeeded("b-2")
      .at(300)
      .observed("a-2", "fp-a")
      .retry("a-2", "a-1")
      .succeeded("a-2");
    expect(findingsOf("retry_after", run, config)).toEqual([
      { operation_id: "a-2", failed_operation_id: "a-1", retry_after_ms: 1000, gap_ms: 290 },
    ]);
  });

  it("looks only at the dependencies it is limited to", () => {
    const run = retriedAfter(52, 1000);
    expect(findingsOf("retry_after", run, { ...config, dependencies: ["api"] })).toHaveLength(1);
    expect(findingsOf("retry_after", run, { ...config, dependencies: ["llm"] })).toEqual([]);
  });

  it("describes a finding with the operation that asked (by its label), the gap and the wait asked for", () => {
    const run = retriedAfter(52, 1000);
    const [finding] = findingsOf("retry_after", run, config);
    if (finding === undefined) throw new Error("expected a finding");
    expect(retryAfterCheck.describe(finding, config, labelOf(run))).toBe(
      "operation api GET /customer/123 #1 was retried 52 ms after a response that asked for 1000 ms",
    );
  });
});
