import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../src/analysis/run-analysis.js";
import { Silences } from "../../src/checks/silences.js";
import { checksConfig, httpError, scenarioV2, schedule } from "../analysis/schema-2/scenarios.js";
import { runBuilder } from "../helpers/events.js";
import { findingsOf } from "./check-runs.js";

const config = checksConfig({ maxMs: 1000 }).fail_fast;

/** op-1 fails at 1000 ms (asking for `retryAfterMs`); the workload next observes op-2 at `nextAt`. */
function failedThenActed(nextAt: number, retryAfterMs: number | null = null) {
  return runBuilder()
    .setup()
    .at(900)
    .observed("op-1", "fp-a")
    .injected("op-1", "f1")
    .at(1000)
    .failed("op-1", "injected_http_error", { retryAfterMs })
    .at(nextAt)
    .observed("op-2", "fp-b")
    .succeeded("op-2");
}

describe("the fail_fast check", () => {
  it("finds a workload silent for more than max_ms after a fault-related failure, to its next request", () => {
    expect(findingsOf("fail_fast", failedThenActed(2000), config)).toEqual([]);
    expect(findingsOf("fail_fast", failedThenActed(2001), config)).toEqual([
      { operation_id: "op-1", waited_ms: 1001 },
    ]);
  });

  it("counts the wait from the end of the Retry-After the response asked for", () => {
    expect(findingsOf("fail_fast", failedThenActed(6000, 5000), config)).toEqual([]);
    expect(findingsOf("fail_fast", failedThenActed(7500, 5000), config)).toEqual([
      { operation_id: "op-1", waited_ms: 1500 },
    ]);
  });

  it("measures to WORKLOAD_COMPLETED when the workload makes no request after the failure", () => {
    const run = runBuilder()
      .setup()
      .at(0)
      .observed("op-1", "fp-a", { protocol: "mcp", method: "tools/call", path: "search" })
      .injected("op-1", "f1", "mcp_no_response")
      .at(2000)
      .failed("op-1", "injected_no_response")
      .at(6000)
      .workloadCompleted({ exitCode: null, timedOut: true });
    expect(findingsOf("fail_fast", run, config)).toEqual([{ operation_id: "op-1", waited_ms: 4000 }]);
  });

  it("ignores failures that are not fault-related, a stall waited out, and a repeat that inferred a timeout", () => {
    const run = runBuilder()
      .setup()
      .at(0)
      .observed("op-1", "fp-a")
      .failed("op-1", "upstream_http_error")
      .at(100)
      .observed("op-2", "fp-b")
      .injected("op-2", "f1", "http_stream_stall", { stall_ms: 9000 })
      .at(9200)
      .succeeded("op-2")
      .at(9300)
      .observed("op-3", "fp-c")
      .injected("op-3", "f2", "mcp_latency", { latency_ms: 60000 })
      .at(9400)
      .observed("op-4", "fp-c")
      .failed("op-3", "client_timeout_inferred")
      .succeeded("op-4")
      .at(20000)
      .workloadCompleted();
    expect(findingsOf("fail_fast", run, config)).toEqual([]);
  });

  it("one act ends every wait, each measured from its own failure", () => {
    const run = runBuilder()
      .setup()
      .at(0)
      .observed("op-1", "fp-a")
      .observed("op-2", "fp-b")
      .injected("op-1", "f1")
      .injected("op-2", "f1")
      .at(100)
      .failed("op-1", "injected_http_error")
      .at(1500)
      .failed("op-2", "injected_http_error")
      .at(2200)
      .observed("op-3", "fp-a")
      .succeeded("op-3");
    expect(findingsOf("fail_fast", run, config)).toEqual([{ operation_id: "op-1", waited_ms: 2100 }]);
  });

  it("knows the moment a finding becomes certain: the earliest failure's start plus max_ms and 1", () => {
    const silences = new Silences();
    const events = failedThenActed(5000, 300).events();
    const failure = events.findIndex((event) => event.type === "OPERATION_FAILED");
    for (const [index, event] of events.slice(0, failure + 1).entries()) silences.take(event, index);
    expect(silences.deadline(1000)).toBe(1000 + 300 + 1000 + 1);
    silences.take(events[failure + 1] as (typeof events)[number], failure + 1);
    expect(silences.deadline(1000)).toBeNull();
  });
});

describe("AGENT_HUNG", () => {
  const scenario = (mode: "enforce" | "report") =>
    scenarioV2({
      faults: [httpError("f1", { trigger: schedule(1) })],
      checks: { fail_fast: mode, maxMs: 1000 },
    });
  const hung = () =>
    runBuilder()
      .setup()
      .at(900)
      .observed("op-1", "fp-a")
      .injected("op-1", "f1")
      .at(1000)
      .failed("op-1", "injected_http_error")
      .at(2003)
      .workloadCompleted({ exitCode: -15, timedOut: true, error: "process exceeded 10 second timeout" })
      .events();

  it("takes the place of WORKLOAD_TIMED_OUT when an enforced finding comes with a timeout", () => {
    expect(analyzeRun(scenario("enforce"), hung())).toMatchObject({
      result: "FAILED",
      reasonCode: "AGENT_HUNG",
      diagnostics: [
        "after operation api GET /customer/123 #1 failed, the workload did nothing for 1003 ms, more than 1000 ms",
        "check fail_fast is enforced; to report its findings without failing the run, set checks: {fail_fast: report} in the scenario",
      ],
    });
  });

  it("in report mode the timeout stays the reason and the finding is reported", () => {
    const analysis = analyzeRun(scenario("report"), hung());
    expect(analysis.reasonCode).toBe("WORKLOAD_TIMED_OUT");
    expect(analysis.checks.find((check) => check.name === "fail_fast")).toMatchObject({
      mode: "report",
      passed: false,
      findings: [{ operation_id: "op-1", waited_ms: 1003 }],
    });
  });

  it("a run that times out while the workload still waits on a failure is AGENT_HUNG, before max_ms", () => {
    const timedOutAt = (at: number, retryAfterMs: number | null = null) =>
      runBuilder()
        .setup()
        .at(900)
        .observed("op-1", "fp-a")
        .injected("op-1", "f1")
        .at(1000)
        .failed("op-1", "injected_http_error", { retryAfterMs })
        .at(at)
        .workloadCompleted({ exitCode: -15, timedOut: true, error: "process exceeded 2 second timeout" })
        .events();
    expect(analyzeRun(scenario("enforce"), timedOutAt(1400))).toMatchObject({
      result: "FAILED",
      reasonCode: "AGENT_HUNG",
      diagnostics: [
        "after operation api GET /customer/123 #1 failed, the workload did nothing for 400 ms, until it was stopped",
        "check fail_fast is enforced; to report its findings without failing the run, set checks: {fail_fast: report} in the scenario",
      ],
    });
    // Stopped while it honoured the Retry-After it was asked for: its wait had not started.
    expect(analyzeRun(scenario("enforce"), timedOutAt(1400, 5000)).reasonCode).toBe("WORKLOAD_TIMED_OUT");
    const reported = analyzeRun(scenario("report"), timedOutAt(1400));
    expect(reported.reasonCode).toBe("WORKLOAD_TIMED_OUT");
    expect(reported.checks.find((check) => check.name === "fail_fast")?.findings).toEqual([
      { operation_id: "op-1", waited_ms: 400 },
    ]);
  });

  it("a connection the stop itself closed is no finding short of max_ms", () => {
    const closedThenStopped = (kind: "client_disconnected" | "connection_closed", stoppedAt: number) =>
      runBuilder()
        .setup()
        .at(900)
        .observed("op-1", "fp-a")
        .injected("op-1", "f1", "http_latency", { latency_ms: 60000 })
        .at(1000)
        .failed("op-1", kind)
        .at(stoppedAt)
        .workloadCompleted({ exitCode: -15, timedOut: true, error: "process exceeded 2 second timeout" })
        .events();
    for (const kind of ["client_disconnected", "connection_closed"] as const) {
      expect(analyzeRun(scenario("enforce"), closedThenStopped(kind, 1005)).reasonCode).toBe(
        "WORKLOAD_TIMED_OUT",
      );
      // Closed, then silent for more than max_ms: hung.
      expect(analyzeRun(scenario("enforce"), closedThenStopped(kind, 2500)).reasonCode).toBe("AGENT_HUNG");
    }
  });

  it("an interrupted run that waited less than max_ms has no finding", () => {
    const events = runBuilder()
      .setup()
      .at(900)
      .observed("op-1", "fp-a")
      .injected("op-1", "f1")
      .at(1000)
      .failed("op-1", "injected_http_error")
      .at(1400)
      .workloadCompleted({ exitCode: -15, interrupted: true, error: "process interrupted" })
      .events();
    expect(analyzeRun(scenario("enforce"), events).reasonCode).toBe("INTERRUPTED");
    expect(
      analyzeRun(scenario("enforce"), events).checks.find((c) => c.name === "fail_fast")?.findings,
    ).toEqual([]);
  });

  it("without a timeout an enforced finding fails the run by rule 18, after retry_after", () => {
    const events = runBuilder()
      .setup()
      .at(900)
      .observed("op-1", "fp-a")
      .injected("op-1", "f1")
      .at(1000)
      .failed("op-1", "injected_rate_limit", { retryAfterMs: 100 })
      .at(3000)
      .observed("op-2", "fp-a")
      .retry("op-2", "op-1")
      .succeeded("op-2")
      .workloadCompleted()
      .events();
    expect(analyzeRun(scenario("enforce"), events)).toMatchObject({
      result: "FAILED",
      reasonCode: "AGENT_HUNG",
    });
  });
});
