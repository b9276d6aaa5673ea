import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import type { RecoveryRow } from "../../../src/analysis/types.js";
import type { RecoveryMode } from "../../../src/scenario/types.js";
import { runBuilder } from "../../helpers/events.js";
import { httpError, scenarioV2, schedule } from "./scenarios.js";

const rowsOf = (rows: readonly RecoveryRow[]) =>
  rows.map((row) => [row.faultId, row.failedOperationId, row.retryOperationId, row.recoveryLatencyMs]);

function scenario(recovery: RecoveryMode, occurrences: number[]) {
  return scenarioV2({ recovery, faults: [httpError("f1", { trigger: schedule(...occurrences) })] });
}

/** 503, 503, 200: the proxy links both retries to the oldest unresolved failure, op-1. */
function twoFailuresThenSuccess() {
  return runBuilder()
    .setup()
    .at(0)
    .observed("op-1", "fp-a")
    .injected("op-1")
    .at(10)
    .failed("op-1", "injected_http_error")
    .at(100)
    .observed("op-2", "fp-a")
    .retry("op-2", "op-1", 2)
    .injected("op-2")
    .at(110)
    .failed("op-2", "injected_http_error")
    .at(300)
    .observed("op-3", "fp-a")
    .retry("op-3", "op-1", 3)
    .at(330)
    .succeeded("op-3")
    .workloadCompleted()
    .events();
}

/** Two fingerprints whose chains interleave: a-1, b-1 fail; a-2 fails again; b-2, a-3 succeed. */
function interleavedChains() {
  return runBuilder()
    .setup()
    .at(0)
    .observed("a-1", "fp-a")
    .injected("a-1")
    .failed("a-1", "injected_http_error")
    .at(10)
    .observed("b-1", "fp-b")
    .injected("b-1")
    .failed("b-1", "injected_http_error")
    .at(20)
    .observed("a-2", "fp-a")
    .retry("a-2", "a-1", 2)
    .injected("a-2")
    .failed("a-2", "injected_http_error")
    .at(30)
    .observed("b-2", "fp-b")
    .retry("b-2", "b-1", 2)
    .at(40)
    .succeeded("b-2")
    .at(50)
    .observed("a-3", "fp-a")
    .retry("a-3", "a-1", 3)
    .at(60)
    .succeeded("a-3")
    .workloadCompleted()
    .events();
}

describe("chain and fifo recovery", () => {
  it("503, 503, 200 is two failures both recovered under chain", () => {
    const analysis = analyzeRun(scenario("chain", [1, 2]), twoFailuresThenSuccess());
    expect(analysis).toMatchObject({ result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED" });
    expect(analysis.recovery).toMatchObject({ mode: "chain", required: 2, successful: 2 });
    expect(rowsOf(analysis.recovery.rows)).toEqual([
      ["f1", "op-1", "op-3", 320],
      ["f1", "op-2", "op-3", 220],
    ]);
  });

  it("503, 503, 200 leaves the second failure unresolved under fifo (the schema-1 rule)", () => {
    const analysis = analyzeRun(scenario("fifo", [1, 2]), twoFailuresThenSuccess());
    expect(analysis).toMatchObject({
      result: "FAILED",
      reasonCode: "RECOVERY_NOT_OBSERVED",
      diagnostics: ["fault f1: 2 recoveries were required, but 1 successful recoveries were observed"],
    });
    expect(rowsOf(analysis.recovery.rows)).toEqual([
      ["f1", "op-1", "op-3", 320],
      ["f1", "op-2", null, null],
    ]);
  });

  it("two interleaved chains resolve within their own chain only", () => {
    const chain = analyzeRun(scenario("chain", [1, 2, 3]), interleavedChains());
    expect(rowsOf(chain.recovery.rows)).toEqual([
      ["f1", "a-1", "a-3", 58],
      ["f1", "b-1", "b-2", 28],
      ["f1", "a-2", "a-3", 37],
    ]);
    expect(chain.reasonCode).toBe("RECOVERY_OBSERVED");
    const fifo = analyzeRun(scenario("fifo", [1, 2, 3]), interleavedChains());
    expect(rowsOf(fifo.recovery.rows)).toEqual([
      ["f1", "a-1", "a-3", 58],
      ["f1", "b-1", "b-2", 28],
      ["f1", "a-2", null, null],
    ]);
    expect(fifo.reasonCode).toBe("RECOVERY_NOT_OBSERVED");
  });

  it("a success before the failure never resolves it", () => {
    const events = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1")
      .failed("op-1", "injected_http_error")
      .observed("op-2", "fp-a")
      .retry("op-2", "op-1")
      .succeeded("op-2")
      .observed("op-3", "fp-a")
      .injected("op-3")
      .failed("op-3", "injected_http_error")
      .workloadCompleted()
      .events();
    const analysis = analyzeRun(scenario("chain", [1, 3]), events);
    expect(rowsOf(analysis.recovery.rows).map((row) => row.slice(1, 3))).toEqual([
      ["op-1", "op-2"],
      ["op-3", null],
    ]);
  });

  it("a failed retry that was not injected belongs to the fault of its chain", () => {
    const events = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1", "crm-503")
      .failed("op-1", "injected_http_error")
      .observed("op-2", "fp-a")
      .retry("op-2", "op-1")
      .failed("op-2", "upstream_http_error")
      .observed("op-3", "fp-a")
      .retry("op-3", "op-1", 3)
      .succeeded("op-3")
      .workloadCompleted()
      .events();
    const analysis = analyzeRun(scenarioV2({ faults: [httpError("crm-503")] }), events);
    expect(rowsOf(analysis.recovery.rows)).toEqual([
      ["crm-503", "op-1", "op-3", 6],
      ["crm-503", "op-2", "op-3", 3],
    ]);
    expect(analysis.faults[0]?.recovery).toEqual({ required: 2, successful: 2 });
  });
});
