import { describe, expect, it } from "vitest";
import { analyzeRun } from "../../src/analysis/run-analysis.js";
import { checksConfig, scenarioV2 } from "../analysis/schema-2/scenarios.js";
import { runBuilder } from "../helpers/events.js";
import { findingsOf } from "./check-runs.js";

const config = checksConfig({ cancellation: "report" }).cancellation;
const mcp = { protocol: "mcp", method: "tools/call", path: "search", dependency: "tools" } as const;

function withheld(cancelled: boolean) {
  const run = runBuilder()
    .setup(["tools"])
    .at(10)
    .observed("op-1", "fp-a", mcp)
    .injected("op-1", "f1", "mcp_no_response")
    .failed("op-1", "injected_no_response")
    .at(1010);
  if (cancelled) run.emit({ kind: "MCP_CANCELLED", dependency: "tools", session: 1, operation_id: "op-1" });
  return run.at(1020).observed("op-2", "fp-a", mcp).retry("op-2", "op-1").succeeded("op-2");
}

describe("the cancellation check", () => {
  it("finds a withheld request the agent abandoned without notifications/cancelled", () => {
    expect(findingsOf("cancellation", withheld(false), config)).toEqual([{ operation_id: "op-1" }]);
    expect(findingsOf("cancellation", withheld(true), config)).toEqual([]);
  });

  it("finds a delayed answer given up by a repeat or a closed session, not one waited for or cancelled", () => {
    const run = runBuilder().setup(["tools"]).at(0);
    const delayed = (id: string, fp: string) => run.observed(id, fp, mcp).injected(id, "f1", "mcp_latency");
    delayed("op-1", "fp-a").observed("op-2", "fp-a", mcp).failed("op-1", "client_timeout_inferred");
    run.retry("op-2", "op-1").succeeded("op-2");
    delayed("op-3", "fp-b").succeeded("op-3");
    delayed("op-4", "fp-c");
    run.emit({ kind: "MCP_CANCELLED", dependency: "tools", session: 1, operation_id: "op-4" });
    run.failed("op-4", "client_cancelled");
    delayed("op-5", "fp-d").failed("op-5", "connection_closed");
    expect(findingsOf("cancellation", run, config)).toEqual([
      { operation_id: "op-1" },
      { operation_id: "op-5" },
    ]);
  });

  it("leaves HTTP operations and answered faults alone", () => {
    const run = runBuilder()
      .setup(["api", "tools"])
      .at(0)
      .observed("op-1", "fp-a")
      .injected("op-1", "f1", "http_latency", { latency_ms: 5000 })
      .failed("op-1", "client_disconnected")
      .observed("op-2", "fp-b", mcp)
      .injected("op-2", "f2", "mcp_error", { code: -32603 })
      .failed("op-2", "injected_rpc_error");
    expect(findingsOf("cancellation", run, config)).toEqual([]);
  });

  it("enforced, fails the run CANCELLATION_NOT_SENT after the recovery rules", () => {
    const scenario = scenarioV2({
      dependencies: [],
      faults: [],
      checks: { retry_after: "off", cancellation: "enforce" },
    });
    const analysis = analyzeRun(scenario, withheld(false).workloadCompleted().events());
    expect(analysis.checks.map((check) => check.name)).toEqual([
      "retry_storm",
      "duplicate_writes",
      "cancellation",
    ]);
    expect(analysis.checks.at(-1)).toMatchObject({ passed: false });
  });
});
