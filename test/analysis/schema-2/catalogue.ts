/**
 * One schema-2 run per reason code of the docs/evidence.md table (and a few more shapes), for
 * tests that need realistic analyses: the report 4 round trip, the summary.
 */
import type { Fault, Scenario } from "../../../src/scenario/types.js";
import { type RunBuilder, runBuilder } from "../../helpers/events.js";
import { injectedFailure, recoveredFault, successfulRetry } from "./run-fixtures.js";
import {
  httpDependency,
  httpError,
  mcpStdioDependency,
  probability,
  scenarioV2,
  schedule,
} from "./scenarios.js";

export interface CatalogueRun {
  readonly name: string;
  readonly reasonCode: string;
  readonly scenario: Scenario;
  readonly run: () => RunBuilder;
  readonly managed?: readonly string[];
}

const one = (options: Parameters<typeof httpError>[1] = {}) =>
  scenarioV2({ faults: [httpError("f1", options)] });
const recovered = () => recoveredFault(runBuilder().setup(), "op-1", "op-2");
const truncate: Fault = {
  id: "cut",
  type: "http_stream_truncate",
  dependency: "api",
  target: { kind: "http", method: null, path: "/customer/*" },
  trigger: schedule(1),
  expect: "recover",
  afterEvents: null,
  afterBytes: 128,
};

export const CATALOGUE: readonly CatalogueRun[] = [
  {
    name: "baseline with a managed dependency",
    reasonCode: "BASELINE_SUCCEEDED",
    scenario: scenarioV2({ dependencies: [httpDependency("api", { managed: true })] }),
    run: () =>
      runBuilder().setup(["api"], ["api"]).observed("op-1", "fp").succeeded("op-1").workloadCompleted(),
    managed: ["api"],
  },
  {
    name: "run error before the second dependency started",
    reasonCode: "DEPENDENCY_START_FAILED",
    scenario: scenarioV2({
      dependencies: [httpDependency("api", { managed: true }), httpDependency("crm", { managed: true })],
      faults: [httpError("f1", { dependency: "crm" })],
    }),
    run: () =>
      runBuilder()
        .emit({ kind: "RUN_STARTED", scenario_name: "test-scenario" })
        .emit({ kind: "DEPENDENCY_STARTED", dependency: "api", base_url: "http://127.0.0.1:40001", pid: 1 })
        .runError("DEPENDENCY_START_FAILED", "dependency api did not become ready within 15s"),
    managed: ["api"],
  },
  {
    name: "timed out",
    reasonCode: "WORKLOAD_TIMED_OUT",
    scenario: one(),
    run: () =>
      recovered().workloadCompleted({
        exitCode: -15,
        timedOut: true,
        error: "process exceeded 1 second timeout",
      }),
  },
  {
    name: "give_up retried",
    reasonCode: "UNEXPECTED_RETRY",
    scenario: one({ expect: "give_up" }),
    run: () => recovered().workloadCompleted({ exitCode: 1 }),
  },
  {
    name: "give_up retried without success",
    reasonCode: "UNEXPECTED_RETRY",
    scenario: one({ expect: "give_up" }),
    run: () =>
      injectedFailure(runBuilder().setup(), "op-1")
        .observed("op-2", "fp-a")
        .retry("op-2", "op-1")
        .failed("op-2", "upstream_http_error")
        .workloadCompleted(),
  },
  {
    name: "exit code mismatch",
    reasonCode: "WORKLOAD_EXIT_CODE_MISMATCH",
    scenario: one(),
    run: () => recovered().workloadCompleted({ exitCode: 2 }),
  },
  {
    name: "probability contradicted",
    reasonCode: "INTERNAL_ERROR",
    scenario: one({ trigger: probability({ millionths: 1_000_000, seed: 9n, start: 1, end: 2 }) }),
    run: () =>
      runBuilder()
        .setup()
        .observed("op-1", "fp-a")
        .succeeded("op-1")
        .observed("op-2", "fp-b")
        .injected("op-2")
        .failed("op-2", "injected_http_error")
        .workloadCompleted(),
  },
  {
    name: "not triggered",
    reasonCode: "FAULT_NOT_TRIGGERED",
    scenario: one({ target: { kind: "http", method: "POST", path: "/v1/chat/completions" } }),
    run: () => runBuilder().setup().observed("op-1", "fp").succeeded("op-1").workloadCompleted(),
  },
  {
    name: "over-injected schedule",
    reasonCode: "INTERNAL_ERROR",
    scenario: one(),
    run: () =>
      injectedFailure(
        injectedFailure(runBuilder().setup(), "op-1"),
        "op-2",
        "f1",
        "fp-b",
      ).workloadCompleted(),
  },
  {
    name: "schedule incomplete",
    reasonCode: "FAULT_SCHEDULE_INCOMPLETE",
    scenario: one({ trigger: schedule(1, 3) }),
    run: () => recovered().workloadCompleted(),
  },
  {
    name: "window incomplete",
    reasonCode: "TRIGGER_WINDOW_INCOMPLETE",
    scenario: one({ trigger: probability({ millionths: 1_000_000, seed: 9n, start: 1, end: 3 }) }),
    run: () =>
      injectedFailure(
        injectedFailure(runBuilder().setup(), "op-1"),
        "op-2",
        "f1",
        "fp-b",
      ).workloadCompleted(),
  },
  {
    name: "overlapping faults",
    reasonCode: "FAULT_NOT_APPLIED",
    scenario: scenarioV2({ faults: [httpError("first"), httpError("second")] }),
    run: () =>
      successfulRetry(
        runBuilder()
          .setup()
          .observed("op-1", "fp-a")
          .injected("op-1", "first")
          .notApplied("op-1", "second", "another_fault_acted")
          .failed("op-1", "injected_http_error"),
        "op-2",
        "op-1",
      ).workloadCompleted(),
  },
  {
    name: "tolerated latency",
    reasonCode: "FAULT_TOLERATED",
    scenario: one(),
    run: () =>
      runBuilder()
        .setup()
        .observed("op-1", "fp")
        .injected("op-1", "f1", "http_latency", { latency_ms: 50 })
        .succeeded("op-1", { faultRelated: true })
        .workloadCompleted(),
  },
  {
    name: "truncated and accepted",
    reasonCode: "PARTIAL_RESPONSE_ACCEPTED",
    scenario: scenarioV2({ faults: [truncate] }),
    run: () =>
      runBuilder()
        .setup()
        .observed("op-1", "fp")
        .injected("op-1", "cut", "http_stream_truncate", { after_bytes: 128 })
        .failed("op-1", "injected_stream_truncated", { statusCode: 200 })
        .workloadCompleted(),
  },
  {
    name: "fifo leaves the second 503 unresolved",
    reasonCode: "RECOVERY_NOT_OBSERVED",
    scenario: scenarioV2({ recovery: "fifo", faults: [httpError("f1", { trigger: schedule(1, 2) })] }),
    run: () =>
      injectedFailure(runBuilder().setup(), "op-1")
        .observed("op-2", "fp-a")
        .retry("op-2", "op-1")
        .injected("op-2")
        .failed("op-2", "injected_http_error")
        .observed("op-3", "fp-a")
        .retry("op-3", "op-1", 3)
        .succeeded("op-3")
        .workloadCompleted(),
  },
  {
    name: "chain resolves 503, 503, 200",
    reasonCode: "RECOVERY_OBSERVED",
    scenario: scenarioV2({ faults: [httpError("f1", { trigger: schedule(1, 2) })] }),
    run: () =>
      injectedFailure(runBuilder().setup(), "op-1")
        .observed("op-2", "fp-a")
        .retry("op-2", "op-1")
        .injected("op-2")
        .failed("op-2", "injected_http_error")
        .observed("op-3", "fp-a")
        .retry("op-3", "op-1", 3)
        .succeeded("op-3")
        .workloadCompleted(),
  },
  {
    name: "Retry-After ignored",
    reasonCode: "RETRY_AFTER_NOT_HONOURED",
    scenario: one(),
    run: () =>
      runBuilder()
        .setup()
        .at(10)
        .observed("op-1", "fp")
        .injected("op-1", "f1", "http_rate_limit", { retry_after_seconds: 1 })
        .failed("op-1", "injected_rate_limit", { retryAfterMs: 1000 })
        .at(60)
        .observed("op-2", "fp")
        .retry("op-2", "op-1")
        .succeeded("op-2")
        .workloadCompleted(),
  },
  {
    name: "lost write repeated",
    reasonCode: "DUPLICATE_WRITE",
    scenario: scenarioV2({
      faults: [
        {
          ...httpError("lost", { target: { kind: "http", method: "POST", path: "/tickets" } }),
          type: "http_response_lost",
        },
      ],
      checks: { duplicate_writes: "enforce" },
    }),
    run: () =>
      runBuilder()
        .setup()
        .observed("op-1", "fp", { method: "POST", path: "/tickets" })
        .injected("op-1", "lost", "http_response_lost", {})
        .failed("op-1", "injected_response_lost", { statusCode: null, upstreamStatus: 201 })
        .at(500)
        .observed("op-2", "fp", { method: "POST", path: "/tickets" })
        .retry("op-2", "op-1")
        .succeeded("op-2", { statusCode: 201 })
        .workloadCompleted(),
  },
  {
    name: "MCP tool error retried, a quick retry reported",
    reasonCode: "RECOVERY_OBSERVED",
    scenario: scenarioV2({
      dependencies: [httpDependency("llm"), mcpStdioDependency("notes")],
      faults: [
        {
          id: "notes-tool",
          type: "mcp_tool_error",
          dependency: "notes",
          target: { kind: "mcp", method: "tools/call", name: null },
          trigger: schedule(1),
          expect: "recover",
        },
      ],
    }),
    run: () =>
      runBuilder()
        .setup(["llm"])
        .observed("m-1", "fp-m", { dependency: "notes", protocol: "mcp" })
        .injected("m-1", "notes-tool", "mcp_tool_error", {})
        .failed("m-1", "injected_tool_error")
        .observed("m-2", "fp-m", { dependency: "notes", protocol: "mcp" })
        .retry("m-2", "m-1")
        .succeeded("m-2")
        .workloadCompleted(),
  },
  {
    name: "handled without recovery",
    reasonCode: "FAILURE_HANDLED",
    scenario: one({ expect: "handle" }),
    run: () => injectedFailure(runBuilder().setup(), "op-1").workloadCompleted(),
  },
];
