import { describe, expect, it } from "vitest";
import { analyzeSchema1 } from "../../src/analysis/schema-1.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { injectedFailure, recoveredFault } from "./run-fixtures.js";
import { baselineScenario, scheduleScenario } from "./scenarios.js";

describe("metrics and timing", () => {
  it("counts each kind of operation event and takes the duration from the last event", () => {
    const run = recoveredFault(legacyRunBuilder().setup(), "op-1", "op-2");
    run.observed("op-3", "fp-b").failed("op-3", "upstream_http_error");
    run.workloadCompleted({ exitCode: 0 }).at(1434).runCompleted("RECOVERED", "RECOVERY_OBSERVED");
    expect(analyzeSchema1(scheduleScenario([1]), run.events()).metrics).toEqual({
      faultsInjected: 1,
      operationsObserved: 3,
      successfulOperations: 1,
      failedOperations: 2,
      retriesObserved: 1,
      durationMs: 1434,
      workloadExitCode: 0,
      workloadTimedOut: false,
      workloadInterrupted: false,
    });
  });

  it("takes the workload outcome from the last WORKLOAD_COMPLETED", () => {
    const run = legacyRunBuilder().setup().workloadCompleted({ exitCode: 0 });
    run.workloadCompleted({ exitCode: -15, timedOut: true, error: "process exceeded 0.5 second timeout" });
    const analysis = analyzeSchema1(baselineScenario(), run.events());
    expect(analysis.metrics).toMatchObject({ workloadExitCode: -15, workloadTimedOut: true });
    expect(analysis.diagnostics).toEqual(["process exceeded 0.5 second timeout"]);
  });

  it("without a WORKLOAD_COMPLETED the exit code is null and the flags are false", () => {
    const analysis = analyzeSchema1(baselineScenario(), legacyRunBuilder().setup().events());
    expect(analysis.metrics).toMatchObject({
      workloadExitCode: null,
      workloadTimedOut: false,
      workloadInterrupted: false,
    });
  });

  it("reports the first and last timestamps as timing", () => {
    const run = legacyRunBuilder({ origin: "2026-11-29T18:38:21.000Z" }).setup().at(1434).workloadCompleted();
    expect(analyzeSchema1(baselineScenario(), run.events()).timing).toEqual({
      startedAt: "2026-11-29T18:38:21.000Z",
      completedAt: "2026-11-29T18:38:22.434Z",
    });
  });

  it("an empty event stream has no timing, zero duration and is not completed", () => {
    const analysis = analyzeSchema1(baselineScenario(), []);
    expect(analysis).toMatchObject({ timing: null, result: "FAILED", reasonCode: "WORKLOAD_NOT_COMPLETED" });
    expect(analysis.metrics.durationMs).toBe(0);
  });

  it("analyses events in sequence order whatever the order of the input, without changing the input", () => {
    const run = injectedFailure(legacyRunBuilder().setup(), "op-1");
    run.observed("op-2", "fp-a").retry("op-2", "op-1").succeeded("op-2").workloadCompleted();
    const events = run.events();
    const shuffled = [...events].reverse();
    const snapshot = [...shuffled];
    expect(analyzeSchema1(scheduleScenario([1]), shuffled)).toEqual(
      analyzeSchema1(scheduleScenario([1]), events),
    );
    expect(shuffled).toEqual(snapshot);
    expect(analyzeSchema1(scheduleScenario([1]), shuffled).reasonCode).toBe("RECOVERY_OBSERVED");
  });
});
