import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import type { RunAnalysis } from "../../../src/analysis/types.js";
import type { Scenario } from "../../../src/scenario/types.js";
import { runBuilder } from "../../helpers/events.js";
import { injectedFailure, recoveredFault, successfulRetry } from "./run-fixtures.js";
import { httpDependency, httpError, probability, scenarioV2, schedule } from "./scenarios.js";

const verdict = (analysis: RunAnalysis) => ({
  result: analysis.result,
  reasonCode: analysis.reasonCode,
  diagnostics: analysis.diagnostics,
});

const oneFault = (options: Parameters<typeof httpError>[1] = {}) =>
  scenarioV2({ faults: [httpError("f1", options)] });
const recoveredRun = () => recoveredFault(runBuilder().setup(), "op-1", "op-2");
const RECOVERED = { result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] };

describe("the result precedence of docs/evidence.md", () => {
  it("rules 1-4 as schema 1: run error, not completed, interrupted, timed out", () => {
    const runError = recoveredRun()
      .runError("PROXY_START_FAILED", "proxy failed to start: EADDRINUSE")
      .workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), runError.events()))).toEqual({
      result: "FAILED",
      reasonCode: "PROXY_START_FAILED",
      diagnostics: ["proxy failed to start: EADDRINUSE"],
    });
    expect(analyzeRun(oneFault(), recoveredRun().events()).reasonCode).toBe("WORKLOAD_NOT_COMPLETED");
    const interrupted = recoveredRun().workloadCompleted({
      exitCode: -15,
      interrupted: true,
      timedOut: true,
    });
    expect(analyzeRun(oneFault(), interrupted.events()).reasonCode).toBe("INTERRUPTED");
    const timedOut = recoveredRun().workloadCompleted({
      exitCode: -15,
      timedOut: true,
      error: "process exceeded 1 second timeout",
    });
    expect(verdict(analyzeRun(oneFault(), timedOut.events()))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_TIMED_OUT",
      diagnostics: ["process exceeded 1 second timeout"],
    });
    expect(verdict(analyzeRun(oneFault(), recoveredRun().workloadCompleted().events()))).toEqual(RECOVERED);
  });

  it("rule 4a: a retried row of a give_up fault is UNEXPECTED_RETRY whatever the exit code", () => {
    const events = recoveredRun().workloadCompleted({ exitCode: 1 }).events();
    expect(verdict(analyzeRun(oneFault({ expect: "give_up" }), events))).toEqual({
      result: "FAILED",
      reasonCode: "UNEXPECTED_RETRY",
      diagnostics: [
        "operation api GET /customer/123 #1 failed under fault f1, which expects give_up, and was retried by operation api GET /customer/123 #2",
      ],
    });
    // A failed retry is a retry too.
    const failedRetry = injectedFailure(runBuilder().setup(), "op-1")
      .observed("op-2", "fp-a")
      .retry("op-2", "op-1")
      .failed("op-2", "upstream_http_error")
      .workloadCompleted();
    expect(analyzeRun(oneFault({ expect: "give_up" }), failedRetry.events()).reasonCode).toBe(
      "UNEXPECTED_RETRY",
    );
  });

  it("rule 4a yields to a timeout and to a missing exit code, and a give_up fault left alone is handled", () => {
    const timedOut = recoveredRun().workloadCompleted({ exitCode: -15, timedOut: true });
    expect(analyzeRun(oneFault({ expect: "give_up" }), timedOut.events()).reasonCode).toBe(
      "WORKLOAD_TIMED_OUT",
    );
    const noExitCode = recoveredRun().workloadCompleted({ exitCode: null });
    expect(analyzeRun(oneFault({ expect: "give_up" }), noExitCode.events()).reasonCode).toBe(
      "WORKLOAD_NOT_COMPLETED",
    );
    const gaveUp = injectedFailure(runBuilder().setup(), "op-1").workloadCompleted({ exitCode: 0 });
    expect(verdict(analyzeRun(oneFault({ expect: "give_up" }), gaveUp.events()))).toEqual({
      result: "PASSED",
      reasonCode: "FAILURE_HANDLED",
      diagnostics: [],
    });
  });

  it("rule 5: an exit code other than success.exit_code, when no give_up row was retried", () => {
    const events = recoveredRun().workloadCompleted({ exitCode: 1 }).events();
    expect(verdict(analyzeRun(oneFault(), events))).toEqual({
      result: "FAILED",
      reasonCode: "WORKLOAD_EXIT_CODE_MISMATCH",
      diagnostics: ["expected workload exit code 0, got 1"],
    });
    const gaveUpBadly = injectedFailure(runBuilder().setup(), "op-1").workloadCompleted({ exitCode: 1 });
    expect(analyzeRun(oneFault({ expect: "give_up" }), gaveUpBadly.events()).reasonCode).toBe(
      "WORKLOAD_EXIT_CODE_MISMATCH",
    );
  });

  it("rule 6: duplicate sequence numbers are INTERNAL_ERROR", () => {
    const run = recoveredRun().workloadCompleted();
    run.emit({ kind: "DEPENDENCY_STOPPED", dependency: "api", exit_code: 0 }, { sequence: 2 });
    expect(verdict(analyzeRun(oneFault(), run.events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["duplicate event sequence numbers were recorded"],
    });
  });

  it("rule 7: no fault configured passes as BASELINE_SUCCEEDED", () => {
    const events = runBuilder().setup().observed("op-1", "fp").succeeded("op-1").workloadCompleted().events();
    expect(verdict(analyzeRun(scenarioV2(), events))).toEqual({
      result: "PASSED",
      reasonCode: "BASELINE_SUCCEEDED",
      diagnostics: [],
    });
  });

  it("rule 8: probability selections that contradict the selector are INTERNAL_ERROR", () => {
    const always = oneFault({ trigger: probability({ millionths: 1_000_000, seed: 7n, start: 1, end: 2 }) });
    const wrong = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .succeeded("op-1")
      .observed("op-2", "fp-b")
      .injected("op-2")
      .failed("op-2", "injected_http_error")
      .workloadCompleted();
    expect(verdict(analyzeRun(always, wrong.events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["fault f1: probability trigger selections contradicted the recorded operations"],
    });
    const right = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1")
      .failed("op-1", "injected_http_error")
      .observed("op-2", "fp-b")
      .injected("op-2")
      .failed("op-2", "injected_http_error")
      .workloadCompleted();
    expect(analyzeRun(always, right.events()).reasonCode).toBe("RECOVERY_NOT_OBSERVED");
  });

  it("rule 9: a fault with no selection fails as FAULT_NOT_TRIGGERED, listing what its dependency saw", () => {
    const scenario = scenarioV2({
      dependencies: [httpDependency("api"), httpDependency("crm")],
      faults: [
        httpError("f1"),
        httpError("crm-503", {
          dependency: "crm",
          target: { kind: "http", method: "POST", path: "/v1/tickets" },
        }),
      ],
    });
    const run = recoveredRun();
    for (const [id, method, path] of [
      ["c1", "POST", "/tickets"],
      ["c2", "GET", "/tickets/1"],
      ["c3", "POST", "/tickets"],
    ] as const) {
      run.observed(id, `fp-${id}`, { dependency: "crm", method, path }).succeeded(id);
    }
    expect(verdict(analyzeRun(scenario, run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_NOT_TRIGGERED",
      diagnostics: [
        "fault crm-503: the configured trigger produced no fault injection; observed on crm: POST /tickets (2), GET /tickets/1 (1)",
      ],
    });
    const nothing = runBuilder().setup().workloadCompleted().events();
    expect(analyzeRun(oneFault(), nothing).diagnostics).toEqual([
      "fault f1: the configured trigger produced no fault injection; no operations were observed on api",
    ]);
  });

  it("rule 9 lists at most 10 method/path pairs, most frequent first, ties in the order observed", () => {
    const run = runBuilder().setup();
    for (let i = 1; i <= 12; i++) {
      for (let n = 0; n < (i === 7 ? 3 : 1); n++) run.observed(`op-${i}-${n}`, "fp", { path: `/p${i}` });
    }
    const [diagnostic] = analyzeRun(
      oneFault({ target: { kind: "http", method: null, path: "/x" } }),
      run.workloadCompleted().events(),
    ).diagnostics;
    expect(diagnostic).toBe(
      "fault f1: the configured trigger produced no fault injection; observed on api: GET /p7 (3), GET /p1 (1), GET /p2 (1), GET /p3 (1), GET /p4 (1), GET /p5 (1), GET /p6 (1), GET /p8 (1), GET /p9 (1), GET /p10 (1), and 2 more",
    );
  });

  it("rule 10: an operation injected twice, or a fault-related failure no fault explains, is INTERNAL_ERROR", () => {
    const scenario = scenarioV2({ faults: [httpError("f1"), httpError("f2")] });
    const twice = recoveredRun().injected("op-1", "f2").workloadCompleted();
    expect(verdict(analyzeRun(scenario, twice.events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: ["duplicate fault injection evidence was recorded for operation api GET /customer/123 #1"],
    });
    const orphan = recoveredRun()
      .observed("op-9", "fp-z")
      .failed("op-9", "upstream_http_error", { faultRelated: true })
      .workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), orphan.events()))).toEqual({
      result: "FAILED",
      reasonCode: "INTERNAL_ERROR",
      diagnostics: [
        "operation api GET /customer/123 #3 failed as fault-related, but no configured fault was injected into its retry chain",
      ],
    });
    expect(verdict(analyzeRun(oneFault(), recoveredRun().workloadCompleted().events()))).toEqual(RECOVERED);
  });

  it("rule 11: more selections than the schedule has entries is INTERNAL_ERROR", () => {
    const run = injectedFailure(injectedFailure(runBuilder().setup(), "op-1"), "op-2", "f1", "fp-b");
    expect(verdict(analyzeRun(oneFault({ trigger: schedule(1) }), run.workloadCompleted().events()))).toEqual(
      {
        result: "FAILED",
        reasonCode: "INTERNAL_ERROR",
        diagnostics: ["fault f1: the fault schedule configured 1 injections, but 2 were recorded"],
      },
    );
  });

  it("rule 12: an incomplete schedule of any fault fails as FAULT_SCHEDULE_INCOMPLETE", () => {
    const events = recoveredRun().workloadCompleted().events();
    expect(verdict(analyzeRun(oneFault({ trigger: schedule(1, 3) }), events))).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_SCHEDULE_INCOMPLETE",
      diagnostics: ["fault f1: the fault schedule configured 2 injections, but only 1 completed"],
    });
  });

  it("rule 13: an incomplete probability window fails as TRIGGER_WINDOW_INCOMPLETE", () => {
    const always = oneFault({ trigger: probability({ millionths: 1_000_000, seed: 1n, start: 1, end: 3 }) });
    const run = injectedFailure(runBuilder().setup(), "op-1");
    run.observed("op-2", "fp-b").injected("op-2").failed("op-2", "injected_http_error");
    expect(verdict(analyzeRun(always, run.workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "TRIGGER_WINDOW_INCOMPLETE",
      diagnostics: ["fault f1: the probability window required 3 evaluations, but only 2 completed"],
    });
  });

  it("rule 14: a selection that lost to an earlier fault counts for its trigger but fails as FAULT_NOT_APPLIED", () => {
    const scenario = scenarioV2({ faults: [httpError("first"), httpError("second")] });
    const run = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1", "first")
      .notApplied("op-1", "second", "another_fault_acted")
      .failed("op-1", "injected_http_error");
    successfulRetry(run, "op-2", "op-1").workloadCompleted();
    const analysis = analyzeRun(scenario, run.events());
    expect(verdict(analysis)).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_NOT_APPLIED",
      diagnostics: [
        "fault second was selected for operation api GET /customer/123 #1 but not applied: another_fault_acted",
      ],
    });
    expect(analysis.faults.map((f) => [f.id, f.selections.length, f.injected, f.notApplied])).toEqual([
      ["first", 1, 1, 0],
      ["second", 1, 0, 1],
    ]);
    expect(analysis.faults[1]?.trigger).toMatchObject({ completedOccurrences: [1], completed: true });
  });

  it("rule 14: a mid-stream fault that could not act is FAULT_NOT_APPLIED with its reason", () => {
    const run = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1", "f1", "http_stream_truncate", { after_events: 5 })
      .notApplied("op-1", "f1", "ended_before_cut")
      .succeeded("op-1", { faultRelated: true, relayedEvents: 3 })
      .workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), run.events()))).toEqual({
      result: "FAILED",
      reasonCode: "FAULT_NOT_APPLIED",
      diagnostics: [
        "fault f1 was selected for operation api GET /customer/123 #1 but not applied: ended_before_cut",
      ],
    });
  });

  it("rule 15: an injection without a fault-related failure passes as FAULT_TOLERATED", () => {
    const run = runBuilder()
      .setup()
      .observed("op-1", "fp-a")
      .injected("op-1", "f1", "http_latency", { latency_ms: 100 })
      .succeeded("op-1", { faultRelated: true })
      .workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), run.events()))).toEqual({
      result: "PASSED",
      reasonCode: "FAULT_TOLERATED",
      diagnostics: [],
    });
  });

  it("rule 16: an unresolved truncated response of a recover fault is PARTIAL_RESPONSE_ACCEPTED", () => {
    const truncated = () =>
      runBuilder()
        .setup()
        .observed("op-1", "fp-a", { method: "POST", path: "/v1/chat/completions" })
        .injected("op-1", "f1", "http_stream_truncate", { after_events: 2 })
        .failed("op-1", "injected_stream_truncated", { statusCode: 200, relayedEvents: 2 });
    expect(verdict(analyzeRun(oneFault(), truncated().workloadCompleted().events()))).toEqual({
      result: "FAILED",
      reasonCode: "PARTIAL_RESPONSE_ACCEPTED",
      diagnostics: [
        "operation api POST /v1/chat/completions #1 got a silently truncated response from fault f1, and no complete retry followed",
      ],
    });
    const retried = successfulRetry(truncated(), "op-2", "op-1").workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), retried.events()))).toEqual(RECOVERED);
    expect(
      analyzeRun(oneFault({ expect: "handle" }), truncated().workloadCompleted().events()).reasonCode,
    ).toBe("FAILURE_HANDLED");
  });

  it("rule 17: an unresolved row of a recover fault is RECOVERY_NOT_OBSERVED, per fault", () => {
    const events = injectedFailure(runBuilder().setup(), "op-1").workloadCompleted().events();
    expect(verdict(analyzeRun(oneFault(), events))).toEqual({
      result: "FAILED",
      reasonCode: "RECOVERY_NOT_OBSERVED",
      diagnostics: ["fault f1: 1 recoveries were required, but 0 successful recoveries were observed"],
    });
    expect(analyzeRun(oneFault({ expect: "handle" }), events).reasonCode).toBe("FAILURE_HANDLED");
  });

  it("rule 19: any resolved row recovers the run, a handle fault's too; rule 20 otherwise", () => {
    const scenario = scenarioV2({
      faults: [
        httpError("f1", { expect: "handle" }),
        httpError("f2", { expect: "handle", target: { kind: "http", method: "POST", path: "/x" } }),
      ],
    });
    const run = recoveredRun()
      .observed("op-3", "fp-x", { method: "POST", path: "/x" })
      .injected("op-3", "f2")
      .failed("op-3", "injected_http_error")
      .workloadCompleted();
    const analysis = analyzeRun(scenario, run.events());
    expect(verdict(analysis)).toEqual(RECOVERED);
    expect(analysis.recovery).toMatchObject({ required: 0, successful: 0 });
    expect(analysis.recovery.rows.map((row) => [row.faultId, row.retryOperationId])).toEqual([
      ["f1", "op-2"],
      ["f2", null],
    ]);
  });

  it("a closed event stream is a success that resolves a row", () => {
    const run = injectedFailure(runBuilder().setup(), "op-1")
      .observed("op-2", "fp-a")
      .retry("op-2", "op-1")
      .succeeded("op-2", { relayedEvents: 4, closedByClient: true })
      .workloadCompleted();
    expect(verdict(analyzeRun(oneFault(), run.events()))).toEqual(RECOVERED);
  });

  it("an MCP success (no status code) resolves a row", () => {
    const scenario = scenarioV2({
      faults: [httpError("f1", { target: { kind: "mcp", method: "tools/call", name: "add_*" } })],
    });
    const run = runBuilder()
      .setup()
      .observed("op-1", "fp-m", { protocol: "mcp", path: "add_note" })
      .injected("op-1", "f1", "mcp_error", { code: -32603 })
      .failed("op-1", "injected_rpc_error", { rpcErrorCode: -32603 })
      .observed("op-2", "fp-m", { protocol: "mcp", path: "add_note" })
      .retry("op-2", "op-1")
      .succeeded("op-2")
      .workloadCompleted();
    for (const recovery of ["chain", "fifo"] as const) {
      const analysis = analyzeRun({ ...scenario, recovery } satisfies Scenario, run.events());
      expect(verdict(analysis)).toEqual(RECOVERED);
    }
  });
});
