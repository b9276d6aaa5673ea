import { describe, expect, it } from "vitest";
import { analyzeSchema1 } from "../../src/analysis/schema-1.js";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { injectedFailure, recoveredFault } from "./run-fixtures.js";
import { scheduleScenario } from "./scenarios.js";

const recoveryOf = (events: LegacyEvent[], schedule: number[] = [1]) =>
  analyzeSchema1(scheduleScenario(schedule), events).recovery;

describe("recovery evidence", () => {
  it("measures latency from the failure to the retry's success in elapsed milliseconds", () => {
    const run = legacyRunBuilder().setup().observed("op-1", "fp-a").injected("op-1");
    run.at(100).failed("op-1", "injected_http_error").at(180).observed("op-2", "fp-a").retry("op-2", "op-1");
    run.at(250).succeeded("op-2");
    expect(recoveryOf(run.workloadCompleted().events())).toEqual({
      required: 1,
      successful: 1,
      evidence: [{ failed_operation_id: "op-1", retry_operation_id: "op-2", recovery_latency_ms: 150 }],
    });
  });

  it("never reports a negative latency", () => {
    const run = legacyRunBuilder().setup().observed("op-1", "fp-a").injected("op-1");
    run.at(300).failed("op-1", "injected_http_error").at(290).observed("op-2", "fp-a").retry("op-2", "op-1");
    run.at(295).succeeded("op-2");
    expect(recoveryOf(run.workloadCompleted().events()).evidence).toEqual([
      { failed_operation_id: "op-1", retry_operation_id: "op-2", recovery_latency_ms: 0 },
    ]);
  });

  it("has one row per fault-related failure and ignores failures that are not fault-related", () => {
    const run = recoveredFault(legacyRunBuilder().setup(), "op-1", "op-2");
    run.observed("op-3", "fp-b").failed("op-3", "upstream_http_error");
    run.observed("op-4", "fp-c").failed("op-4", "client_disconnected", { faultRelated: false });
    const recovery = recoveryOf(run.workloadCompleted().events());
    expect(recovery.required).toBe(1);
    expect(recovery.evidence.map((row) => row.failed_operation_id)).toEqual(["op-1"]);
  });

  it("with schedule [2, 3] one success resolves the older failure only, and the newer needs its own", () => {
    const run = legacyRunBuilder().setup().observed("op-1", "fp-a").succeeded("op-1");
    injectedFailure(run, "op-2");
    run.observed("op-3", "fp-a").retry("op-3", "op-2").injected("op-3").failed("op-3", "injected_http_error");
    run.observed("op-4", "fp-a").retry("op-4", "op-2", { attempt: 3 }).succeeded("op-4");
    const partial = run.events();
    expect(recoveryOf(partial, [2, 3]).evidence).toEqual([
      { failed_operation_id: "op-2", retry_operation_id: "op-4", recovery_latency_ms: expect.any(Number) },
      { failed_operation_id: "op-3", retry_operation_id: null, recovery_latency_ms: null },
    ]);
    run.observed("op-5", "fp-a").retry("op-5", "op-3").succeeded("op-5");
    const analysis = analyzeSchema1(scheduleScenario([2, 3]), run.workloadCompleted().events());
    expect(analysis.recovery.evidence.map((row) => row.retry_operation_id)).toEqual(["op-4", "op-5"]);
    expect([analysis.result, analysis.reasonCode]).toEqual(["RECOVERED", "RECOVERY_OBSERVED"]);
  });

  it("a failed retry leaves the failure open for a later successful retry", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1");
    run.observed("op-2", "fp-a").retry("op-2", "op-1").failed("op-2", "upstream_http_error");
    run.observed("op-3", "fp-a").retry("op-3", "op-1", { attempt: 3 }).succeeded("op-3");
    expect(recoveryOf(run.workloadCompleted().events()).evidence).toEqual([
      { failed_operation_id: "op-1", retry_operation_id: "op-3", recovery_latency_ms: expect.any(Number) },
    ]);
  });

  it("one retry operation resolves at most one failure", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1");
    injectedFailure(run, "op-2");
    run.observed("op-3", "fp-a").retry("op-3", "op-1").retry("op-3", "op-2").succeeded("op-3");
    const analysis = analyzeSchema1(scheduleScenario([1, 2]), run.workloadCompleted().events());
    expect(analysis.recovery).toMatchObject({ required: 2, successful: 1 });
    expect(analysis.recovery.evidence.map((row) => row.retry_operation_id)).toEqual(["op-3", null]);
    expect(analysis.reasonCode).toBe("RECOVERY_NOT_OBSERVED");
  });

  it("a retry with another fingerprint never resolves a failure", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1", "fp-a");
    run.observed("op-2", "fp-b").retry("op-2", "op-1").succeeded("op-2");
    run.observed("op-3", "fp-a").retry("op-3", "op-1").succeeded("op-3", { fingerprint: "fp-b" });
    const recovery = recoveryOf(run.workloadCompleted().events());
    expect(recovery).toEqual({
      required: 1,
      successful: 0,
      evidence: [{ failed_operation_id: "op-1", retry_operation_id: null, recovery_latency_ms: null }],
    });
  });

  it("a retry answered with status 400 or more is not a recovery", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1");
    run.observed("op-2", "fp-a").retry("op-2", "op-1").succeeded("op-2", { statusCode: 404 });
    run.observed("op-3", "fp-a").retry("op-3", "op-1").succeeded("op-3", { statusCode: 399 });
    expect(recoveryOf(run.workloadCompleted().events()).evidence[0]?.retry_operation_id).toBe("op-3");
  });

  it("a retry recorded before the failure in sequence order does not resolve it", () => {
    const run = legacyRunBuilder().setup().observed("op-1", "fp-a").injected("op-1");
    run.observed("op-2", "fp-a").retry("op-2", "op-1").succeeded("op-2");
    run.failed("op-1", "injected_http_error");
    expect(recoveryOf(run.workloadCompleted().events()).successful).toBe(0);
  });

  it("a success recorded before the retry event does not count for it", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1");
    run.observed("op-2", "fp-a").succeeded("op-2").retry("op-2", "op-1");
    expect(recoveryOf(run.workloadCompleted().events()).successful).toBe(0);
  });
});
