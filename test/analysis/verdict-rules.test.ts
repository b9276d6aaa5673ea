import { describe, expect, it } from "vitest";
import { analyzeSchema1 } from "../../src/analysis/schema-1.js";
import type { Schema1Analysis } from "../../src/analysis/types.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { injectedFailure, recoveredFault, successfulRetry } from "./run-fixtures.js";
import { baselineScenario, probabilityScenario, scheduleScenario } from "./scenarios.js";

const verdict = (analysis: Schema1Analysis) => ({
  result: analysis.result,
  reasonCode: analysis.reasonCode,
  diagnostics: analysis.diagnostics,
});

/** A run that recovered from one injected failure: rule 16 unless something else is wrong. */
const recoveredRun = () => recoveredFault(legacyRunBuilder().setup(), "op-1", "op-2");

describe("the result precedence of docs/evidence.md", () => {
  it("rule 1: the last RUN_ERROR fails the run with its reason code and message", () => {
    const events = recoveredRun()
      .runError("PROXY_START_FAILED", "proxy failed to start: EADDRINUSE")
      .runError("WORKLOAD_SPAWN_FAILED", "workload spawn failed: spawn ENOENT")
      .workloadCompleted()
      .events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_SPAWN_FAILED",
      diagnostics: ["workload spawn failed: spawn ENOENT"],
    });
  });

  it("rule 2: a run without WORKLOAD_COMPLETED fails as WORKLOAD_NOT_COMPLETED", () => {
    const events = recoveredRun().dependencyStopped().events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_NOT_COMPLETED",
      diagnostics: ["workload completion was not recorded"],
    });
  });

  it("rule 3: an interrupted workload fails as INTERRUPTED, before its timeout is considered", () => {
    const events = recoveredRun()
      .workloadCompleted({ exitCode: -15, interrupted: true, timedOut: true, error: "process interrupted" })
      .events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "FAILED",
      reasonCode: "INTERRUPTED",
      diagnostics: ["the workload was interrupted"],
    });
  });

  it("rule 4: a timed-out workload fails with the completion error text as diagnostic", () => {
    const events = recoveredRun()
      .workloadCompleted({ exitCode: -15, timedOut: true, error: "process exceeded 10 second timeout" })
      .events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_TIMED_OUT",
      diagnostics: ["process exceeded 10 second timeout"],
    });
  });

  it("rule 5: an exit code other than success.exit_code fails as WORKLOAD_EXIT_CODE_MISMATCH", () => {
    const events = recoveredRun().workloadCompleted({ exitCode: 1 }).events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_EXIT_CODE_MISMATCH",
      diagnostics: ["expected workload exit code 0, got 1"],
    });
    const expectingThree = scheduleScenario([1], { expectedExitCode: 3 });
    expect(
      analyzeSchema1(expectingThree, recoveredRun().workloadCompleted({ exitCode: 3 }).events()).result,
    ).toBe("RECOVERED");
  });

  it("a completion without an exit code counts as not completed, as the strict report reader derives it", () => {
    const events = recoveredRun().workloadCompleted({ exitCode: null }).events();
    expect(analyzeSchema1(scheduleScenario([1]), events)).toMatchObject({
      result: "FAILED",
      reasonCode: "WORKLOAD_NOT_COMPLETED",
    });
  });

  it("rule 6: duplicate sequence numbers fail the run as INTERNAL_ERROR", () => {
    const run = recoveredRun().workloadCompleted();
    run.emit({ kind: "DEPENDENCY_STOPPED", exit_code: 0 }, { sequence: 3 });
    expect(verdict(analyzeSchema1(scheduleScenario([1]), run.events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["duplicate event sequence numbers were recorded"],
    });
  });

  it("rule 7: a run without a configured fault passes as BASELINE_SUCCEEDED", () => {
    const events = legacyRunBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .succeeded("op-1")
      .workloadCompleted()
      .events();
    expect(verdict(analyzeSchema1(baselineScenario(), events))).toEqual({
      result: "PASSED",
      reasonCode: "BASELINE_SUCCEEDED",
      diagnostics: [],
    });
  });

  it("rule 8: an injection at an ordinal the selector did not pick fails as INTERNAL_ERROR", () => {
    // seed 10, probability 0.5 selects ordinal 2 among 1-3; ordinal 3 is injected as well
    const run = legacyRunBuilder().setup().observed("op-1", "fp-a").succeeded("op-1");
    injectedFailure(run, "op-2", "fp-b");
    injectedFailure(run, "op-3", "fp-c");
    const scenario = probabilityScenario({ probabilityMillionths: 500_000, seed: 10n, start: 1, end: 3 });
    expect(verdict(analyzeSchema1(scenario, run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["probability trigger selections contradicted the recorded operations"],
    });
  });

  it("rule 9: a configured fault that never injected fails as FAULT_NOT_TRIGGERED", () => {
    const events = legacyRunBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .succeeded("op-1")
      .workloadCompleted()
      .events();
    expect(verdict(analyzeSchema1(scheduleScenario([2]), events))).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_NOT_TRIGGERED",
      diagnostics: ["the configured trigger produced no fault injection"],
    });
  });

  it("rule 10: one operation injected twice fails as INTERNAL_ERROR", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1").injected("op-1");
    const events = successfulRetry(run, "op-2", "op-1").workloadCompleted().events();
    expect(verdict(analyzeSchema1(scheduleScenario([1, 2]), events))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["duplicate fault injection evidence was recorded for one operation"],
    });
  });

  it("rule 11: more injections than the schedule has entries fails as INTERNAL_ERROR", () => {
    const run = legacyRunBuilder().setup();
    for (const op of ["op-1", "op-2", "op-3"]) injectedFailure(run, op, `fp-${op}`);
    expect(verdict(analyzeSchema1(scheduleScenario([1, 2]), run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["the fault schedule configured 2 injections, but 3 were recorded"],
    });
  });

  it("rule 12: fewer injections than scheduled fails as FAULT_SCHEDULE_INCOMPLETE", () => {
    const events = recoveredRun().workloadCompleted().events();
    expect(verdict(analyzeSchema1(scheduleScenario([1, 2]), events))).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_SCHEDULE_INCOMPLETE",
      diagnostics: ["the fault schedule configured 2 injections, but only 1 completed"],
    });
  });

  it("rule 13: a probability window that was not fully evaluated fails as TRIGGER_WINDOW_INCOMPLETE", () => {
    const run = legacyRunBuilder().setup(); // probability 1 selects every evaluated ordinal: 1, 2 and 3
    for (const op of ["op-1", "op-2", "op-3"]) injectedFailure(run, op, `fp-${op}`);
    const scenario = probabilityScenario({ probabilityMillionths: 1_000_000, seed: 7n, start: 1, end: 5 });
    expect(verdict(analyzeSchema1(scenario, run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "TRIGGER_WINDOW_INCOMPLETE",
      diagnostics: ["the probability window required 5 evaluations, but only 3 completed"],
    });
  });

  it("rule 14: a fault without any fault-related failure passes as FAULT_TOLERATED", () => {
    const events = legacyRunBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1", "http_latency", { latency_ms: 200 })
      .succeeded("op-1", { durationMs: 204 })
      .workloadCompleted()
      .events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "PASSED",
      reasonCode: "FAULT_TOLERATED",
      diagnostics: [],
    });
  });

  it("rule 15: an unresolved fault-related failure fails as RECOVERY_NOT_OBSERVED", () => {
    const run = recoveredFault(legacyRunBuilder().setup(), "op-1", "op-2");
    injectedFailure(run, "op-3", "fp-b");
    expect(verdict(analyzeSchema1(scheduleScenario([1, 3]), run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "RECOVERY_NOT_OBSERVED",
      diagnostics: ["2 recoveries were required, but 1 successful recoveries were observed"],
    });
  });

  it("rule 16: every fault-related failure resolved gives RECOVERED / RECOVERY_OBSERVED", () => {
    const events = recoveredRun().workloadCompleted().dependencyStopped().events();
    expect(verdict(analyzeSchema1(scheduleScenario([1]), events))).toEqual({
      result: "RECOVERED",
      reasonCode: "RECOVERY_OBSERVED",
      diagnostics: [],
    });
  });
});
