import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { testFolder } from "../helpers/cli.js";
import { runOf, runSuite, type SuiteEventLine, type SuiteOutcome } from "../helpers/suite-runs.js";

const out = testFolder("all");

const NAMES = [
  "stdio_tools_changed_relist",
  "stdio_tools_changed_stale",
  "stdio_malformed_recovered",
  "http_tools_changed_relist",
  "http_tools_changed_stale",
  "http_malformed_recovered",
] as const;
const SCENARIO = (name: string) => `examples/mcp/scenarios/${name}.yaml`;

/** The six examples run once, two at a time, by one `agentchaos suite` of the built CLI. */
let suite: SuiteOutcome;
beforeAll(async () => {
  suite = await runSuite(NAMES.map(SCENARIO), join(out.path, "suite"));
}, 240_000);

/**
 * One example's run: its exit code, report and events, and what its agent printed (the lines
 * `agentchaos run` shows live). Every MCP server its shims started has ended.
 */
function run(name: (typeof NAMES)[number]) {
  const { exitCode, report, events } = runOf(suite, SCENARIO(name));
  const cli = { code: exitCode, stdout: agentOutput(name) };
  for (const event of events.filter((line) => line.type === "SESSION_STARTED")) {
    expect(processAlive(event.payload.pid as number)).toBe(false);
  }
  return { cli, report, events };
}

/** What the example's agent printed (its run folder's stdout.log). */
function agentOutput(name: string): string {
  return readFileSync(join(runOf(suite, SCENARIO(name)).runDir, "stdout.log"), "utf8");
}

const failures = (events: readonly SuiteEventLine[]) =>
  events
    .filter((event) => event.type === "OPERATION_FAILED")
    .map((event) => [event.payload.failure_kind, event.payload.rpc_error_code]);

type Outcome = ReturnType<typeof run>;

/** What every relist example shows (stdio or HTTP); returns its tools/list operations. */
function expectRelisted({ cli, report, events }: Outcome) {
  expect(cli.code).toBe(0);
  expect(report).toMatchObject({ schema_version: 5, result: "PASSED", reason_code: "FAULT_TOLERATED" });
  expect(new Set(events.map((event) => event.schema_version))).toEqual(new Set([3]));
  expect(cli.stdout).toContain("tools: list changed");
  expect(cli.stdout).toContain("search_notes: gone, reading by title");
  const injected = events.filter((event) => event.type === "FAULT_INJECTED");
  expect(injected.map((event) => event.payload.parameters)).toEqual([
    { remove: "search_notes", require: "reason" },
  ]);
  expect(failures(events)).toEqual([]);
  const listed = events.filter(
    (event) => event.type === "OPERATION_OBSERVED" && event.payload.method === "tools/list",
  );
  expect(listed).toHaveLength(2);
  return listed;
}

/** What every stale example shows (stdio or HTTP). */
function expectStale(outcome: Outcome): Outcome {
  const { cli, report, events } = outcome;
  expect(cli.code).toBe(1);
  expect(report).toMatchObject({ result: "FAILED", reason_code: "WORKLOAD_EXIT_CODE_MISMATCH" });
  expect(cli.stdout).toContain("search_notes: failed (-32602)");
  expect(failures(events)).toEqual([["rpc_error", -32602]]);
  return outcome;
}

describe("the MCP session-fault examples, through the built CLI", () => {
  it("runs all six in one suite with no error, its exit code 1 for the two stale ones", () => {
    expect(suite.cli.stderr).toBe("");
    expect(suite.cli.code, suite.cli.stdout).toBe(1);
    expect(suite.runs.size).toBe(NAMES.length);
  });

  it("stdio_tools_changed_relist: the agent lists its tools again and completes (PASSED / FAULT_TOLERATED)", () => {
    expectRelisted(run("stdio_tools_changed_relist"));
  });

  it("stdio_tools_changed_stale: the agent calls the removed tool, gets -32602 and fails", () => {
    expectStale(run("stdio_tools_changed_stale"));
  });

  it("stdio_malformed_recovered: a not_json answer, the SDK's deadline, a retry (RECOVERED)", () => {
    const { cli, report, events } = run("stdio_malformed_recovered");
    expect(cli.code).toBe(0);
    expect(report).toMatchObject({
      schema_version: 5,
      result: "RECOVERED",
      reason_code: "RECOVERY_OBSERVED",
    });
    expect(failures(events)).toEqual([["injected_malformed", null]]);
    const injected = events.find((event) => event.type === "FAULT_INJECTED");
    expect(injected?.payload.parameters).toEqual({ shape: "not_json" });
    expect(cli.stdout).toContain("read_note: attempt 1 failed (timed out), retrying");
  });

  it("http_tools_changed_relist: over Streamable HTTP the agent lists its tools again and completes", () => {
    const listed = expectRelisted(run("http_tools_changed_relist"));
    expect(listed.map((event) => event.payload.session)).toEqual([null, null]);
  });

  it("http_tools_changed_stale: over Streamable HTTP the removed tool answers -32602 and the agent fails", () => {
    const { events } = expectStale(run("http_tools_changed_stale"));
    const listed = events.filter(
      (event) => event.type === "OPERATION_OBSERVED" && event.payload.method === "tools/list",
    );
    expect(listed).toHaveLength(1);
  });

  it("http_malformed_recovered: a not_json body over Streamable HTTP fails the call at once, a retry (RECOVERED)", () => {
    const { cli, report, events } = run("http_malformed_recovered");
    expect(cli.code).toBe(0);
    expect(report).toMatchObject({
      schema_version: 5,
      result: "RECOVERED",
      reason_code: "RECOVERY_OBSERVED",
    });
    expect(failures(events)).toEqual([["injected_malformed", null]]);
    const injected = events.find((event) => event.type === "FAULT_INJECTED");
    expect(injected?.payload.parameters).toEqual({ shape: "not_json" });
    // Unlike stdio, the transport fails the call at once: the body cannot be parsed.
    expect(cli.stdout).toContain("read_note: attempt 1 failed (request failed), retrying");
  });
});
