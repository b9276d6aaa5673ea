import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import { chainOf, retriedAfter } from "../../checks/check-runs.js";
import { httpError, type ScenarioOptions, scenarioV2, schedule } from "./scenarios.js";

const withChecks = (checks: NonNullable<ScenarioOptions["checks"]>, occurrences = [1]) =>
  scenarioV2({ faults: [httpError("f1", { trigger: schedule(...occurrences) })], checks });

describe("rule 18 and the check modes", () => {
  it("an enforced retry_after finding fails the run, naming the operations and the numbers, and how to only report it", () => {
    const analysis = analyzeRun(withChecks({}), retriedAfter(52, 1000).workloadCompleted().events());
    expect(analysis).toMatchObject({
      result: "FAILED",
      reasonCode: "RETRY_AFTER_NOT_HONOURED",
      diagnostics: [
        "operation api GET /customer/123 #1 was retried 52 ms after a response that asked for 1000 ms",
        "check retry_after is enforced (retry_after is enforced by default); to report its findings without failing the run, set checks: {retry_after: report} in the scenario",
      ],
    });
    expect(analysis.checks.map((check) => [check.name, check.mode, check.passed])).toEqual([
      ["retry_after", "enforce", false],
      ["retry_storm", "report", true],
      ["duplicate_writes", "report", true],
    ]);
  });

  it("a reported finding is kept but never changes the result", () => {
    const analysis = analyzeRun(
      withChecks({ retry_after: "report" }),
      retriedAfter(52, 1000).workloadCompleted().events(),
    );
    expect(analysis).toMatchObject({ result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] });
    expect(analysis.checks[0]).toMatchObject({ name: "retry_after", mode: "report", passed: false });
    expect(analysis.checks[0]?.findings).toHaveLength(1);
  });

  it("an honoured Retry-After passes the enforced check", () => {
    const analysis = analyzeRun(withChecks({}), retriedAfter(1000, 1000).workloadCompleted().events());
    expect(analysis.reasonCode).toBe("RECOVERY_OBSERVED");
    expect(analysis.checks[0]).toMatchObject({ passed: true, findings: [] });
  });

  it("an off check leaves no trace", () => {
    const analysis = analyzeRun(
      withChecks({ retry_after: "off", retry_storm: "off", duplicate_writes: "off" }),
      retriedAfter(52, 1000).workloadCompleted().events(),
    );
    expect(analysis.checks).toEqual([]);
    expect(analysis.reasonCode).toBe("RECOVERY_OBSERVED");
  });

  it("enforced checks decide in the order retry_after, retry_storm, duplicate_writes", () => {
    const events = chainOf(7, 10, 1000).workloadCompleted().events();
    const storm = withChecks({ retry_storm: "enforce" }, [1, 2, 3, 4, 5, 6]);
    expect(analyzeRun(storm, events).reasonCode).toBe("RETRY_AFTER_NOT_HONOURED");
    const stormOnly = withChecks({ retry_after: "report", retry_storm: "enforce" }, [1, 2, 3, 4, 5, 6]);
    expect(analyzeRun(stormOnly, events)).toMatchObject({
      result: "FAILED",
      reasonCode: "RETRY_STORM",
      diagnostics: [
        "the retry chain of operation api GET /customer/123 #1 has 7 operations, more than 5",
        "check retry_storm is enforced; to report its findings without failing the run, set checks: {retry_storm: report} in the scenario",
      ],
    });
  });

  it("an unresolved row outranks an enforced finding (rule 17 before rule 18)", () => {
    const run = retriedAfter(52, 1000);
    run.observed("op-3", "fp-b").injected("op-3").failed("op-3", "injected_http_error");
    expect(analyzeRun(withChecks({}, [1, 2]), run.workloadCompleted().events()).reasonCode).toBe(
      "RECOVERY_NOT_OBSERVED",
    );
  });
});
