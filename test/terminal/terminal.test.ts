import { describe, expect, it } from "vitest";
import type { LegacyEvent, LegacyEventPayload } from "../../src/events/legacy/types.js";
import { LEGACY_EVENT_COMPONENT } from "../../src/events/legacy/types.js";
import { exitCodeFor } from "../../src/report/exit-code.js";
import { makeRunId } from "../../src/runtime/run-id.js";
import { formatElapsed, formatLiveLine, liveLines, useColour } from "../../src/terminal/terminal.js";
import { runBuilder } from "../helpers/events.js";

function event(payload: LegacyEventPayload, elapsed: number): LegacyEvent {
  return {
    schema_version: 1,
    event_id: "6f1c2a36-0c53-4a53-9a55-3f6f0d7f4f10",
    run_id: "20261129T183821Z-1a2b3c4d",
    sequence: 1,
    timestamp: "2026-11-29T18:38:21.123Z",
    elapsed_ms: elapsed,
    type: payload.kind,
    component: LEGACY_EVENT_COMPONENT[payload.kind],
    payload,
  };
}

describe("live terminal lines", () => {
  it("formats elapsed time as seconds with three decimals padded to eight characters", () => {
    expect(formatElapsed(183)).toBe("0000.183");
    expect(formatElapsed(0)).toBe("0000.000");
    expect(formatElapsed(12_345_678)).toBe("12345.678");
  });

  it("renders each operation event exactly as docs/cli.md shows", () => {
    const op = "b3f2c1a0-1111-4222-8333-944455556666";
    const fp = "a".repeat(64);
    const lines = [
      event(
        {
          kind: "OPERATION_OBSERVED",
          operation_id: op,
          protocol: "http",
          method: "GET",
          path: "/customer/123",
          query_hash: fp,
          body_hash: fp,
          fingerprint: fp,
        },
        183,
      ),
      event(
        {
          kind: "FAULT_INJECTED",
          operation_id: op,
          fault_type: "http_error",
          parameters: { status_code: 503 },
        },
        196,
      ),
      event(
        {
          kind: "OPERATION_FAILED",
          operation_id: op,
          fingerprint: fp,
          failure_kind: "injected_http_error",
          status_code: 503,
          fault_related: true,
        },
        197,
      ),
      event(
        { kind: "RETRY_OBSERVED", operation_id: op, retry_of_operation_id: op, fingerprint: fp, attempt: 2 },
        250,
      ),
      event(
        {
          kind: "OPERATION_SUCCEEDED",
          operation_id: op,
          fingerprint: fp,
          status_code: 200,
          duration_ms: 3,
          fault_related: true,
        },
        260,
      ),
    ].map((e) => formatLiveLine(e, false));
    expect(lines.join("")).toBe(
      [
        "0000.183  TOOL_CALL      GET /customer/123",
        '0000.196  CHAOS          http_error {"status_code":503}',
        "0000.197  TOOL_FAILURE   injected_http_error",
        "0000.250  RETRY          attempt=2",
        "0000.260  SUCCESS        200",
        "",
      ].join("\n"),
    );
  });

  it("prints nothing for lifecycle events", () => {
    expect(formatLiveLine(event({ kind: "RUN_STARTED", scenario_name: "x" }, 0), false)).toBeNull();
    expect(formatLiveLine(event({ kind: "WORKLOAD_STARTED", name: "agent", pid: 1 }, 0), false)).toBeNull();
  });

  it("prints a schema-1 setup failure with its reason, which a run without one never shows", () => {
    const failure = event(
      {
        kind: "RUN_ERROR",
        reason_code: "DEPENDENCY_START_FAILED",
        message: "dependency did not become ready within 5s",
      },
      5012,
    );
    expect(formatLiveLine(failure, false)).toBe(
      "0005.012  RUN_ERROR      DEPENDENCY_START_FAILED: dependency did not become ready within 5s\n",
    );
  });

  it("uses colour only on a terminal without NO_COLOR", () => {
    expect(useColour(true, {})).toBe(true);
    expect(useColour(true, { NO_COLOR: "1" })).toBe(false);
    expect(useColour(false, {})).toBe(false);
    expect(useColour(undefined, {})).toBe(false);
  });
});

describe("run ids and exit codes", () => {
  it("makes run ids of UTC time and eight lowercase hex characters", () => {
    expect(makeRunId(new Date("2026-11-29T18:38:21.999Z"))).toMatch(/^20261129T183821Z-[0-9a-f]{8}$/);
    expect(makeRunId()).not.toBe(makeRunId());
  });

  it("maps results and reasons to the documented exit codes", () => {
    expect(exitCodeFor("PASSED", "BASELINE_SUCCEEDED", false)).toBe(0);
    expect(exitCodeFor("RECOVERED", "RECOVERY_OBSERVED", false)).toBe(0);
    expect(exitCodeFor("FAILED", "RECOVERY_NOT_OBSERVED", false)).toBe(1);
    for (const reason of [
      "DEPENDENCY_START_FAILED",
      "PROXY_START_FAILED",
      "WORKLOAD_SPAWN_FAILED",
      "INTERNAL_ERROR",
    ]) {
      expect(exitCodeFor("FAILED", reason, false)).toBe(3);
    }
    expect(exitCodeFor("FAILED", "INTERRUPTED", true)).toBe(130);
    expect(exitCodeFor("FAILED", "WORKLOAD_NOT_COMPLETED", true)).toBe(130);
  });
});

describe("schema-2 live lines", () => {
  it("name every operation by its dependency and label: model, MCP and HTTP calls alike", () => {
    const events = runBuilder()
      .setup(["llm", "notes"])
      .at(183)
      .observed("op-1", "fp-a", { dependency: "llm", method: "POST", path: "/v1/chat/completions" })
      .at(196)
      .injected("op-1", "llm-503", "http_error", { status_code: 503 })
      .at(197)
      .failed("op-1", "injected_http_error")
      .at(250)
      .observed("op-2", "fp-a", { dependency: "llm", method: "POST", path: "/v1/chat/completions" })
      .retry("op-2", "op-1")
      .at(260)
      .succeeded("op-2")
      .at(300)
      .observed("op-3", "fp-n", { dependency: "notes", protocol: "mcp" })
      .at(310)
      .succeeded("op-3", { statusCode: null })
      .events();
    const format = liveLines(false);
    const lines = events.flatMap((event) => {
      const line = format(event);
      return line === null || event.elapsed_ms < 183 ? [] : [line];
    });
    expect(lines.join("")).toBe(
      [
        "0000.183  llm            POST /v1/chat/completions #1",
        '0000.196  CHAOS          llm-503 http_error {"status_code":503} on llm POST /v1/chat/completions #1',
        "0000.197  llm            POST /v1/chat/completions #1 failed: injected_http_error 503",
        "0000.250  llm            POST /v1/chat/completions #2",
        "0000.251  llm            POST /v1/chat/completions #2 retries #1 (attempt 2)",
        "0000.260  llm            POST /v1/chat/completions #2 succeeded: 200",
        "0000.300  notes          tools/call add_note #1",
        "0000.310  notes          tools/call add_note #1 succeeded: ok",
        "",
      ].join("\n"),
    );
    expect(lines.join("")).not.toMatch(/TOOL_FAILURE|SUCCESS|TOOL_CALL/);
  });
});
