import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import { validateReport } from "../../../src/report/reader.js";
import { renderSummaryBodyV4 } from "../../../src/report/summary-v4.js";
import { buildReportV4 } from "../../../src/report/v4/build.js";
import { serializeReport } from "../../../src/report/writer.js";
import type { Fault, Scenario, Trigger } from "../../../src/scenario/types.js";
import { runBuilder } from "../../helpers/events.js";
import { httpDependency, httpError, scenarioV2 } from "./scenarios.js";

const OUTAGE: Trigger = { kind: "outage", startMs: 1000, durationMs: 2000 };
const REQUESTS: Trigger = { kind: "quota", unit: "requests", limit: 2, perMs: 10_000 };
const TOKENS: Trigger = { kind: "quota", unit: "tokens", limit: 30, perMs: 60_000 };

function scenarioWith(trigger: Trigger): Scenario {
  const fault: Fault = { ...httpError("f1"), trigger };
  return scenarioV2({ dependencies: [httpDependency("api")], faults: [fault] });
}

/** Five GETs on /customer/*: c3 and c4 failed by f1, each retried once and resolved. */
function fiveWithTwoSelected() {
  const run = runBuilder().setup(["api"]);
  run.observed("c1", "fp1", { path: "/customer/1" }).succeeded("c1");
  run.observed("c2", "fp2", { path: "/customer/2" }).succeeded("c2");
  run.observed("c3", "fp3", { path: "/customer/3" }).injected("c3").failed("c3", "injected_http_error");
  run.observed("c4", "fp4", { path: "/customer/4" }).injected("c4").failed("c4", "injected_http_error");
  run.observed("r3", "fp3", { path: "/customer/3" }).retry("r3", "c3").succeeded("r3");
  run.observed("r4", "fp4", { path: "/customer/4" }).retry("r4", "c4").succeeded("r4");
  return run.workloadCompleted();
}

function reportOf(scenario: Scenario, run: ReturnType<typeof runBuilder>) {
  const first = analyzeRun(scenario, run.events());
  run.runCompleted(first.result, first.reasonCode);
  const analysis = analyzeRun(scenario, run.events());
  return buildReportV4({ scenario, analysis, runId: run.runId, managedDependencies: [] });
}

describe("outage and quota evidence", () => {
  it("gives an outage its selections and the first and last selected ordinals", () => {
    const analysis = analyzeRun(scenarioWith(OUTAGE), fiveWithTwoSelected().events());
    expect(analysis.faults[0]?.trigger).toEqual({
      kind: "outage",
      startMs: 1000,
      durationMs: 2000,
      selected: 2,
      firstSelectedOrdinal: 3,
      lastSelectedOrdinal: 4,
    });
    expect([analysis.result, analysis.reasonCode]).toEqual(["RECOVERED", "RECOVERY_OBSERVED"]);
  });

  it("counts the requests a quota let through and the tokens it recorded", () => {
    const requests = analyzeRun(scenarioWith(REQUESTS), fiveWithTwoSelected().events());
    expect(requests.faults[0]?.trigger).toEqual({
      kind: "quota",
      unit: "requests",
      limit: 2,
      perMs: 10_000,
      counted: 4,
      selected: 2,
    });
    const run = fiveWithTwoSelected();
    run.emit({ kind: "TOKENS_COUNTED", fault_id: "f1", operation_id: "c1", tokens: 12 });
    run.emit({ kind: "TOKENS_COUNTED", fault_id: "f1", operation_id: "c2", tokens: 20 });
    run.emit({ kind: "TOKENS_COUNTED", fault_id: "other", operation_id: "c2", tokens: 99 });
    const tokens = analyzeRun(scenarioWith(TOKENS), run.events());
    expect(tokens.faults[0]?.trigger).toMatchObject({
      kind: "quota",
      unit: "tokens",
      counted: 32,
      selected: 2,
    });
  });

  it("fails a run whose outage or quota never selected anything as FAULT_NOT_TRIGGERED", () => {
    for (const trigger of [OUTAGE, REQUESTS, TOKENS]) {
      const run = runBuilder().setup(["api"]);
      run.observed("c1", "fp1", { path: "/customer/1" }).succeeded("c1").workloadCompleted();
      const analysis = analyzeRun(scenarioWith(trigger), run.events());
      expect([analysis.result, analysis.reasonCode]).toEqual(["FAILED", "FAULT_NOT_TRIGGERED"]);
    }
    const run = runBuilder().setup(["api"]);
    run.observed("c1", "fp1", { path: "/customer/1" }).succeeded("c1").workloadCompleted();
    const report = reportOf(scenarioWith(OUTAGE), run);
    expect(report.faults[0]?.trigger).toEqual({
      kind: "outage",
      start_ms: 1000,
      duration_ms: 2000,
      selected: 0,
      first_selected_ordinal: null,
      last_selected_ordinal: null,
    });
    expect(validateReport(parse(serializeReport(report)))).toEqual(report);
  });

  it("writes report 5 with the trigger objects, which the strict reader accepts and the summary shows", () => {
    const outage = reportOf(scenarioWith(OUTAGE), fiveWithTwoSelected());
    expect(outage.schema_version).toBe(5);
    expect(outage.faults[0]?.trigger).toEqual({
      kind: "outage",
      start_ms: 1000,
      duration_ms: 2000,
      selected: 2,
      first_selected_ordinal: 3,
      last_selected_ordinal: 4,
    });
    expect(validateReport(parse(serializeReport(outage)))).toEqual(outage);
    expect(renderSummaryBodyV4(outage)).toContain("outage 1000+2000 ms, selected 2 (ordinals 3-4)");
    const quota = reportOf(scenarioWith(REQUESTS), fiveWithTwoSelected());
    expect(quota.faults[0]?.trigger).toEqual({
      kind: "quota",
      unit: "requests",
      limit: 2,
      per_ms: 10_000,
      counted: 4,
      selected: 2,
    });
    expect(validateReport(parse(serializeReport(quota)))).toEqual(quota);
    expect(renderSummaryBodyV4(quota)).toContain("quota 2 requests/10000 ms, counted 4, selected 2");
  });
});
