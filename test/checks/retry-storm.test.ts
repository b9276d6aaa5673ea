import { describe, expect, it } from "vitest";
import { retryStormCheck } from "../../src/checks/retry-storm.js";
import { checksConfig } from "../analysis/schema-2/scenarios.js";
import { runBuilder } from "../helpers/events.js";
import { chainOf, findingsOf, labelOf, retriedAfter } from "./check-runs.js";

const config = checksConfig().retry_storm;

describe("the retry_storm check", () => {
  it("looks only at the dependencies it is limited to, chains and quick retries alike", () => {
    const run = chainOf(6, 10);
    expect(findingsOf("retry_storm", run, { ...config, dependencies: ["api"] }).length).toBeGreaterThan(1);
    expect(findingsOf("retry_storm", run, { ...config, dependencies: ["llm"] })).toEqual([]);
  });

  it("allows a chain of max_attempts operations and finds one with more", () => {
    expect(findingsOf("retry_storm", chainOf(5), config)).toEqual([]);
    expect(findingsOf("retry_storm", chainOf(6), config)).toEqual([
      { first_operation_id: "op-1", operations: 6 },
    ]);
    const strict = checksConfig({ maxAttempts: 2 }).retry_storm;
    expect(findingsOf("retry_storm", chainOf(2), strict)).toEqual([]);
    expect(findingsOf("retry_storm", chainOf(3), strict)).toEqual([
      { first_operation_id: "op-1", operations: 3 },
    ]);
  });

  it("finds a retry sooner than min_gap_ms after a failure that asked for no delay", () => {
    expect(findingsOf("retry_storm", retriedAfter(100, null), config)).toEqual([]);
    expect(findingsOf("retry_storm", retriedAfter(99, null), config)).toEqual([
      { operation_id: "op-2", failed_operation_id: "op-1", gap_ms: 99 },
    ]);
    const patient = checksConfig({ minGapMs: 500 }).retry_storm;
    expect(findingsOf("retry_storm", retriedAfter(499, null), patient)).toHaveLength(1);
    expect(findingsOf("retry_storm", retriedAfter(500, null), patient)).toEqual([]);
  });

  it("leaves a quick retry alone when the failure asked for a delay (that is retry_after's business)", () => {
    expect(findingsOf("retry_storm", retriedAfter(0, 0), config)).toEqual([]);
    expect(findingsOf("retry_storm", retriedAfter(10, 1000), config)).toEqual([]);
  });

  it("lists a long chain of quick retries once as a chain and once per quick retry", () => {
    const findings = findingsOf("retry_storm", chainOf(7, 10), config);
    expect(findings[0]).toEqual({ first_operation_id: "op-1", operations: 7 });
    expect(findings.slice(1)).toEqual(
      [2, 3, 4, 5, 6, 7].map((i) => ({
        operation_id: `op-${i}`,
        failed_operation_id: `op-${i - 1}`,
        gap_ms: 10,
      })),
    );
  });

  it("keeps interleaved chains apart: each counts its own operations and measures its own gaps", () => {
    const run = runBuilder().setup();
    const attempt = (id: string, fp: string, at: number, retryOf?: string, n = 2) => {
      run.at(at).observed(id, fp);
      if (retryOf !== undefined) run.retry(id, retryOf, n);
      run.injected(id).at(at).failed(id, "injected_http_error");
    };
    // a-1 fails at 0, b-1 at 50; a-2 comes 60 ms after a-1 (quick), b-2 150 ms after b-1 (not quick);
    // then a-3 and b-3 succeed. Together there are six operations, three per chain.
    attempt("a-1", "fp-a", 0);
    attempt("b-1", "fp-b", 50);
    attempt("a-2", "fp-a", 60, "a-1");
    attempt("b-2", "fp-b", 200, "b-1");
    run.at(400).observed("a-3", "fp-a").retry("a-3", "a-1", 3).succeeded("a-3");
    run.at(500).observed("b-3", "fp-b").retry("b-3", "b-1", 3).succeeded("b-3");
    const strict = checksConfig({ maxAttempts: 3 }).retry_storm;
    expect(findingsOf("retry_storm", run, strict)).toEqual([
      { operation_id: "a-2", failed_operation_id: "a-1", gap_ms: 60 },
    ]);
    const stricter = checksConfig({ maxAttempts: 2 }).retry_storm;
    expect(findingsOf("retry_storm", run, stricter).slice(0, 2)).toEqual([
      { first_operation_id: "a-1", operations: 3 },
      { first_operation_id: "b-1", operations: 3 },
    ]);
  });

  it("describes both kinds of finding with their numbers", () => {
    const run = chainOf(6, 10);
    const [chain, gap] = findingsOf("retry_storm", run, config);
    if (chain === undefined || gap === undefined) throw new Error("expected findings");
    expect(retryStormCheck.describe(chain, config, labelOf(run))).toBe(
      "the retry chain of operation api GET /customer/123 #1 has 6 operations, more than 5",
    );
    expect(retryStormCheck.describe(gap, config, labelOf(run))).toBe(
      "operation api GET /customer/123 #1 was retried 10 ms after a response that asked for no delay, less than 100 ms",
    );
  });
});
