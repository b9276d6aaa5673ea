import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import { runBuilder } from "../../helpers/events.js";
import {
  httpDependency,
  httpError,
  mcpStdioDependency,
  probability,
  scenarioV2,
  schedule,
} from "./scenarios.js";

describe("schema-2 evidence per dependency and per fault", () => {
  it("counts operations and failures per dependency and keeps the recorded base URLs", () => {
    const scenario = scenarioV2({
      dependencies: [
        httpDependency("llm", { managed: true }),
        httpDependency("crm"),
        mcpStdioDependency("notes"),
      ],
    });
    const run = runBuilder()
      .setup(["llm", "crm", "notes"], ["llm"])
      .observed("l1", "fp-l", { dependency: "llm", method: "POST", path: "/v1/chat/completions" })
      .succeeded("l1")
      .observed("c1", "fp-c", { dependency: "crm" })
      .failed("c1", "upstream_http_error")
      .observed("c2", "fp-c", { dependency: "crm" })
      .succeeded("c2")
      .workloadCompleted();
    const analysis = analyzeRun(scenario, run.events());
    expect(analysis.dependencies).toEqual([
      { name: "llm", operationsObserved: 1, failedOperations: 0, baseUrl: "http://127.0.0.1:8001" },
      { name: "crm", operationsObserved: 2, failedOperations: 1, baseUrl: "http://127.0.0.1:8002" },
      { name: "notes", operationsObserved: 0, failedOperations: 0, baseUrl: "http://127.0.0.1:8003" },
    ]);
    expect(analysis.metrics).toMatchObject({
      operationsObserved: 3,
      failedOperations: 1,
      successfulOperations: 2,
    });
    expect(analysis.reasonCode).toBe("BASELINE_SUCCEEDED");
  });

  it("counts a probability window per fault, on its own dependency and target only", () => {
    const always = probability({ millionths: 1_000_000, seed: 3n, start: 2, end: 3 });
    const scenario = scenarioV2({
      dependencies: [httpDependency("llm"), httpDependency("crm")],
      faults: [
        httpError("crm-flaky", { dependency: "crm", trigger: always, expect: "handle" }),
        httpError("llm-once", { dependency: "llm", trigger: schedule(1), expect: "handle" }),
      ],
    });
    const run = runBuilder().setup(["llm", "crm"]);
    // Same path on llm: never counted by the crm fault.
    run
      .observed("l1", "fp-l", { dependency: "llm" })
      .injected("l1", "llm-once")
      .failed("l1", "injected_http_error");
    run.observed("c1", "fp-1", { dependency: "crm" }).succeeded("c1");
    run
      .observed("c2", "fp-2", { dependency: "crm" })
      .injected("c2", "crm-flaky")
      .failed("c2", "injected_http_error");
    run
      .observed("c3", "fp-3", { dependency: "crm" })
      .injected("c3", "crm-flaky")
      .failed("c3", "injected_http_error");
    const analysis = analyzeRun(scenario, run.workloadCompleted().events());
    expect(analysis.faults.map((fault) => [fault.id, fault.injected, fault.trigger])).toEqual([
      [
        "crm-flaky",
        2,
        {
          kind: "seeded_probability",
          probability: 1,
          seed: 3n,
          window: { startOccurrence: 2, endOccurrence: 3 },
          evaluatedOccurrences: 2,
          selectedOccurrences: [2, 3],
          completed: true,
          consistent: true,
        },
      ],
      [
        "llm-once",
        1,
        {
          kind: "occurrence_schedule",
          scheduledOccurrences: [1],
          completedOccurrences: [1],
          completed: true,
        },
      ],
    ]);
    expect(analysis).toMatchObject({ result: "PASSED", reasonCode: "FAILURE_HANDLED" });
  });

  it("matches MCP targets by exact method and a name glob, never HTTP operations", () => {
    const scenario = scenarioV2({
      dependencies: [httpDependency("notes")],
      faults: [
        httpError("f1", {
          dependency: "notes",
          target: { kind: "mcp", method: "tools/call", name: "add_*" },
          trigger: probability({ millionths: 1_000_000, seed: 1n, start: 1, end: 2 }),
        }),
      ],
    });
    const run = runBuilder().setup(["notes"]);
    run
      .observed("m1", "fp-1", { dependency: "notes", protocol: "mcp", method: "initialize", path: "" })
      .succeeded("m1");
    run.observed("m2", "fp-2", {
      dependency: "notes",
      protocol: "mcp",
      method: "tools/call",
      path: "list_notes",
    });
    run.succeeded("m2");
    run.observed("h1", "fp-3", { dependency: "notes", method: "POST", path: "add_note" }).succeeded("h1");
    run.observed("m3", "fp-4", { dependency: "notes", protocol: "mcp", path: "add_note" }).injected("m3");
    run.failed("m3", "injected_rpc_error", { rpcErrorCode: -32603 });
    const analysis = analyzeRun(scenario, run.workloadCompleted().events());
    expect(analysis.faults[0]?.trigger).toMatchObject({ evaluatedOccurrences: 1, selectedOccurrences: [1] });
    expect(analysis.reasonCode).toBe("TRIGGER_WINDOW_INCOMPLETE");
  });

  it("is pure: the same events give the same analysis, in any input order", () => {
    const scenario = scenarioV2({ faults: [httpError("f1")] });
    const events = runBuilder()
      .setup()
      .observed("op-1", "fp")
      .injected("op-1")
      .failed("op-1", "injected_http_error")
      .workloadCompleted()
      .events();
    expect(analyzeRun(scenario, [...events].reverse())).toEqual(analyzeRun(scenario, events));
  });
});
