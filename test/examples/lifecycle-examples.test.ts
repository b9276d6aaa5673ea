/**
 * The lifecycle examples (docs/checks.md, fail_fast and cancellation) through the CLI, run in this
 * process: the agents, servers and shims are real processes; examples.test.ts runs the built executable.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, ROOT, testFolder } from "../helpers/cli.js";
import { runCliHere } from "../helpers/in-process-cli.js";

const dir = testFolder("each");
const expected: Record<string, { result: string; reason_code: string }> = JSON.parse(
  readFileSync(join(ROOT, "examples/scenarios/expected-outcomes.json"), "utf8"),
);

interface RecordedEvent {
  readonly schema_version: number;
  readonly type: string;
  readonly elapsed_ms: number;
  readonly payload: Record<string, unknown>;
}

let runs = 0;

type ExampleRun = Awaited<ReturnType<typeof runOnce>>;
const exampleRuns = new Map<string, Promise<ExampleRun>>();

/** Runs an example once; every test about that example reads the same run (its files are parsed at once). */
function runExample(key: string): Promise<ExampleRun> {
  let pending = exampleRuns.get(key);
  if (pending === undefined) {
    pending = runOnce(key);
    exampleRuns.set(key, pending);
  }
  return pending;
}

async function runOnce(key: string) {
  const out = join(dir.path, `runs-${++runs}`);
  const cli = await runCliHere(["run", join(ROOT, "examples/scenarios", key), "--output-dir", out]);
  const runDir = onlyRunDir(out);
  const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
  const events: RecordedEvent[] = readFileSync(join(runDir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  return { cli, report, events };
}

const ROWS = [
  "../mcp/scenarios/stdio_no_response_hung.yaml",
  "../mcp/scenarios/stdio_no_response_fail_fast_recovered.yaml",
  "../mcp/scenarios/stdio_no_response_not_cancelled.yaml",
  "v2/lifecycle/stream_stall_waited_fail_fast.yaml",
  "v2/lifecycle/stream_stall_idle_timeout_fail_fast.yaml",
  "../mcp/scenarios/http_no_response_hung.yaml",
  "../mcp/scenarios/http_no_response_fail_fast_recovered.yaml",
  "../mcp/scenarios/http_no_response_not_cancelled.yaml",
  "../mcp/scenarios/stdio_latency_cancelled_recovered.yaml",
  "../mcp/scenarios/stdio_latency_not_cancelled.yaml",
  "../mcp/scenarios/stdio_no_response_abort_signal_recovered.yaml",
];

describe("the lifecycle examples", () => {
  it.each(ROWS)("%s ends as its row, in a schema-3 run", { timeout: 90_000 }, async (key) => {
    const { cli, report, events } = await runExample(key);
    const row = expected[key];
    expect(row).toBeDefined();
    expect({ result: report.result, reason_code: report.reason_code }).toEqual(row);
    expect(cli.code).toBe(row?.result === "FAILED" ? 1 : 0);
    expect(report.schema_version).toBe(5);
    expect(new Set(events.map((event) => event.schema_version))).toEqual(new Set([3]));
  });

  it.each(["../mcp/scenarios/stdio_no_response_hung.yaml", "../mcp/scenarios/http_no_response_hung.yaml"])(
    "%s: an enforced fail_fast stops the hung agent within max_ms + 1 s of the injection, not at the time limit",
    {
      timeout: 90_000,
    },
    async (key) => {
      const { report, events } = await runExample(key);
      const injected = events.find((event) => event.type === "FAULT_INJECTED");
      const completed = events.find((event) => event.type === "WORKLOAD_COMPLETED");
      expect(completed?.payload.timed_out).toBe(true);
      const after = (completed?.elapsed_ms ?? 0) - (injected?.elapsed_ms ?? 0);
      expect(after).toBeGreaterThan(2000);
      expect(after).toBeLessThanOrEqual(2000 + 1000);
      const check = report.checks.find((entry: { name: string }) => entry.name === "fail_fast");
      expect(check).toMatchObject({ mode: "enforce", passed: false });
      // The wait counts from the failure the injection recorded (its own event, maybe a millisecond later).
      const failed = events.find(
        (event) =>
          event.type === "OPERATION_FAILED" && event.payload.operation_id === injected?.payload.operation_id,
      );
      const waited = (completed?.elapsed_ms ?? 0) - (failed?.elapsed_ms ?? 0);
      expect(check.findings).toEqual([{ operation_id: injected?.payload.operation_id, waited_ms: waited }]);
    },
  );

  it.each([
    ["stdio", 1],
    ["http", null],
  ])(
    "%s: records the SDK's notifications/cancelled on its request timeout as MCP_CANCELLED, and none from the quiet agent",
    {
      timeout: 90_000,
    },
    async (transport, session) => {
      const cancelling = await runExample(
        `../mcp/scenarios/${transport}_no_response_fail_fast_recovered.yaml`,
      );
      const injected = cancelling.events.find((event) => event.type === "FAULT_INJECTED");
      const cancelled = cancelling.events.filter((event) => event.type === "MCP_CANCELLED");
      expect(cancelled.map((event) => event.payload)).toEqual([
        {
          kind: "MCP_CANCELLED",
          dependency: "notes",
          session,
          operation_id: injected?.payload.operation_id,
        },
      ]);
      const quiet = await runExample(`../mcp/scenarios/${transport}_no_response_not_cancelled.yaml`);
      expect(quiet.events.filter((event) => event.type === "MCP_CANCELLED")).toEqual([]);
      const check = quiet.report.checks.find((entry: { name: string }) => entry.name === "cancellation");
      const withheld = quiet.events.find((event) => event.type === "FAULT_INJECTED");
      expect(check.findings).toEqual([{ operation_id: withheld?.payload.operation_id }]);
    },
  );

  it("records the SDK's notifications/cancelled for an answer mcp_latency still holds; the call ends client_cancelled, once", {
    timeout: 90_000,
  }, async () => {
    const { report, events } = await runExample("../mcp/scenarios/stdio_latency_cancelled_recovered.yaml");
    const injected = events.find((event) => event.type === "FAULT_INJECTED");
    const operationId = injected?.payload.operation_id;
    expect(events.filter((event) => event.type === "MCP_CANCELLED").map((event) => event.payload)).toEqual([
      { kind: "MCP_CANCELLED", dependency: "notes", session: 1, operation_id: operationId },
    ]);
    const ends = events.filter(
      (event) =>
        (event.type === "OPERATION_FAILED" || event.type === "OPERATION_SUCCEEDED") &&
        event.payload.operation_id === operationId,
    );
    expect(ends.map((event) => [event.type, event.payload.failure_kind])).toEqual([
      ["OPERATION_FAILED", "client_cancelled"],
    ]);
    const check = report.checks.find((entry: { name: string }) => entry.name === "cancellation");
    expect(check).toMatchObject({ mode: "enforce", passed: true, findings: [] });
  });
});
