/**
 * Reports of runs the lifecycle checks failed (docs/checks.md): AGENT_HUNG in place of a timeout
 * and as an enforced finding, CANCELLATION_NOT_SENT as an enforced finding. The strict reader
 * (inspect, report, suite, merge) must accept what the run wrote, and re-derive the same reason.
 */
import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import { validateReport } from "../../../src/report/reader.js";
import { buildReportV4 } from "../../../src/report/v4/build.js";
import { serializeReport } from "../../../src/report/writer.js";
import type { CheckMode, Fault, Scenario } from "../../../src/scenario/types.js";
import { mcpStdioDependency, scenarioV2, schedule } from "../../analysis/schema-2/scenarios.js";
import { type RunBuilder, runBuilder } from "../../helpers/events.js";

const noResponse: Fault = {
  id: "read-lost",
  type: "mcp_no_response",
  dependency: "notes",
  target: { kind: "mcp", method: "tools/call", name: "read_note" },
  trigger: schedule(1),
  expect: "recover",
};

const mcp = { protocol: "mcp", method: "tools/call", path: "read_note", dependency: "notes" } as const;

function scenarioWith(checks: { fail_fast?: CheckMode; cancellation?: CheckMode }): Scenario {
  return scenarioV2({
    dependencies: [mcpStdioDependency("notes")],
    faults: [noResponse],
    checks: { ...checks, maxMs: 2000 },
  });
}

/** The request is withheld at 1000 ms; the agent then does nothing until it is stopped. */
function hungUntilStopped(): RunBuilder {
  return runBuilder()
    .setup(["notes"])
    .at(1000)
    .observed("op-1", "fp-a", mcp)
    .injected("op-1", "read-lost", "mcp_no_response", {})
    .failed("op-1", "injected_no_response")
    .at(4000)
    .workloadCompleted({ exitCode: -15, timedOut: true, error: "process stopped" });
}

/** The request is withheld; the agent repeats it 3 s later (no notifications/cancelled) and ends. */
function slowRepeatWithoutCancel(): RunBuilder {
  return runBuilder()
    .setup(["notes"])
    .at(1000)
    .observed("op-1", "fp-a", mcp)
    .injected("op-1", "read-lost", "mcp_no_response", {})
    .failed("op-1", "injected_no_response")
    .at(4000)
    .observed("op-2", "fp-a", mcp)
    .retry("op-2", "op-1")
    .succeeded("op-2")
    .at(4100)
    .workloadCompleted();
}

function reportOf(scenario: Scenario, run: RunBuilder) {
  const first = analyzeRun(scenario, run.events());
  run.runCompleted(first.result, first.reasonCode);
  const analysis = analyzeRun(scenario, run.events());
  return buildReportV4({ scenario, analysis, runId: run.runId, managedDependencies: [] });
}

describe("reports of runs failed by fail_fast and cancellation", () => {
  it.each([
    [
      "an enforced fail_fast finding on a run that timed out",
      { fail_fast: "enforce" },
      hungUntilStopped,
      "AGENT_HUNG",
    ],
    [
      "an enforced fail_fast finding on a run that ended",
      { fail_fast: "enforce" },
      slowRepeatWithoutCancel,
      "AGENT_HUNG",
    ],
    [
      "an enforced cancellation finding",
      { cancellation: "enforce" },
      slowRepeatWithoutCancel,
      "CANCELLATION_NOT_SENT",
    ],
  ] as const)("the strict reader accepts %s", (_, checks, run, reason) => {
    const report = reportOf(scenarioWith(checks), run());
    expect(report.schema_version).toBe(5);
    expect([report.result, report.reason_code]).toEqual(["FAILED", reason]);
    expect(validateReport(parse(serializeReport(report)))).toEqual(report);
  });

  it("refuses a report that calls an enforced fail_fast timeout anything but AGENT_HUNG", () => {
    const report = reportOf(scenarioWith({ fail_fast: "enforce" }), hungUntilStopped());
    const renamed = { ...report, reason_code: "WORKLOAD_TIMED_OUT" };
    expect(() => validateReport(parse(serializeReport(renamed)))).toThrow(/reason_code/);
  });

  it("keeps WORKLOAD_TIMED_OUT for a timed-out run whose fail_fast only reports", () => {
    const report = reportOf(scenarioWith({ fail_fast: "report" }), hungUntilStopped());
    expect(report.reason_code).toBe("WORKLOAD_TIMED_OUT");
    expect(validateReport(parse(serializeReport(report)))).toEqual(report);
  });
});
