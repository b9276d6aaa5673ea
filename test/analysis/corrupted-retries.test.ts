/**
 * A corruption fault with `expect: give_up` forbids retrying the corrupted call (docs/truth.md):
 * the call succeeded on the wire, so the repeat is found by dependency and fingerprint, and the
 * run fails UNEXPECTED_RETRY (rule 4a); the written report passes the strict reader.
 */
import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../src/analysis/run-analysis.js";
import { validateReport } from "../../src/report/reader.js";
import { buildReportV4 } from "../../src/report/v4/build.js";
import { serializeReport } from "../../src/report/writer.js";
import type { Expectation, Scenario } from "../../src/scenario/types.js";
import { type RunBuilder, runBuilder } from "../helpers/events.js";
import { httpDependency, scenarioV2, schedule } from "./schema-2/scenarios.js";

function scenarioExpecting(expect: Expectation): Scenario {
  return scenarioV2({
    dependencies: [httpDependency("shop")],
    checks: { retry_after: "off" },
    faults: [
      {
        id: "wrong-price",
        type: "http_corrupt",
        dependency: "shop",
        target: { kind: "http", method: "GET", path: "/items/*" },
        trigger: schedule(1),
        expect,
        pointer: "/price",
        sinks: ["stdout"],
      },
    ],
  });
}

const item = { dependency: "shop", method: "GET", path: "/items/lamp" } as const;

/** The first item read is corrupted; the workload reads `again` (same request, or another item). */
function corruptedThen(again: "same" | "other"): RunBuilder {
  const run = runBuilder()
    .setup(["shop"])
    .at(100)
    .observed("op-1", "fp-lamp", item)
    .emit({
      kind: "FAULT_INJECTED",
      operation_id: "op-1",
      fault_id: "wrong-price",
      fault_type: "http_corrupt",
      parameters: {},
      pointer: "/price",
      canary_type: "number",
    })
    .succeeded("op-1", { faultRelated: true })
    .at(200);
  if (again === "same") run.observed("op-2", "fp-lamp", item);
  else run.observed("op-2", "fp-desk", { ...item, path: "/items/desk" });
  return run.succeeded("op-2").at(300).workloadCompleted();
}

function analysed(scenario: Scenario, run: RunBuilder) {
  const first = analyzeRun(scenario, run.events());
  run.runCompleted(first.result, first.reasonCode);
  return analyzeRun(scenario, run.events());
}

describe("a retry of a call a corruption fault corrupted", () => {
  it("fails a give_up fault UNEXPECTED_RETRY, naming both operations", () => {
    const analysis = analysed(scenarioExpecting("give_up"), corruptedThen("same"));
    expect([analysis.result, analysis.reasonCode]).toEqual(["FAILED", "UNEXPECTED_RETRY"]);
    expect(analysis.diagnostics).toEqual([
      "operation shop GET /items/lamp #1 was corrupted by fault wrong-price, which expects give_up, and was retried by operation shop GET /items/lamp #2",
    ]);
  });

  it("leaves a give_up fault alone when the workload asks for something else", () => {
    const analysis = analysed(scenarioExpecting("give_up"), corruptedThen("other"));
    expect([analysis.result, analysis.reasonCode]).toEqual(["PASSED", "FAULT_TOLERATED"]);
  });

  it("leaves a handle fault alone: re-reading to cross-check is allowed", () => {
    const analysis = analysed(scenarioExpecting("handle"), corruptedThen("same"));
    expect([analysis.result, analysis.reasonCode]).toEqual(["PASSED", "FAULT_TOLERATED"]);
  });

  it("writes a report the strict reader accepts", () => {
    const scenario = scenarioExpecting("give_up");
    const run = corruptedThen("same");
    const analysis = analysed(scenario, run);
    const report = buildReportV4({ scenario, analysis, runId: run.runId, managedDependencies: [] });
    expect(report.reason_code).toBe("UNEXPECTED_RETRY");
    expect(validateReport(parse(serializeReport(report)))).toEqual(report);
  });
});
