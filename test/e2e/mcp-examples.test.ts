import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { type CliResult, onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runOf, runSuite, type SuiteEventLine, type SuiteOutcome } from "../helpers/suite-runs.js";

/** The table of MCP scenarios in docs/examples.md: file → result, reason, exit. */
const TABLE = [
  ["stdio_tool_error_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["stdio_tool_error_not_recovered", "FAILED", "RECOVERY_NOT_OBSERVED", 1],
  ["stdio_rpc_error_one_tool", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["stdio_no_response_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["stdio_no_response_naive_timeout", "FAILED", "WORKLOAD_TIMED_OUT", 1],
  ["stdio_disconnect_reconnect", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["stdio_latency_tolerated", "PASSED", "FAULT_TOLERATED", 0],
  ["http_tool_error_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["http_no_response_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["http_gateway_503_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["http_disconnect_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["llm_and_mcp_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
] as const;

/** The MCP session-fault examples (mcp_tools_changed, mcp_malformed), in the same suite. */
const SESSION_FAULT_EXAMPLES = [
  "stdio_tools_changed_relist",
  "stdio_tools_changed_stale",
  "stdio_malformed_recovered",
  "http_tools_changed_relist",
  "http_tools_changed_stale",
  "http_malformed_recovered",
] as const;

const out = testFolder("all");

interface Line {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

function eventsOf(runDir: string): Line[] {
  return readFileSync(join(runDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Line);
}

/** The MCP servers the shims started (stdio sessions). */
function serverPids(events: readonly Line[]): number[] {
  return events
    .filter((event) => event.type === "SESSION_STARTED")
    .map((event) => event.payload.pid as number);
}

/** Every file of a run folder, as text. */
function allText(folder: string): string {
  return readdirSync(folder)
    .map((name) => join(folder, name))
    .map((path) => (statSync(path).isDirectory() ? allText(path) : readFileSync(path, "utf8")))
    .join("\n");
}

/** Planted in the tool arguments of the example that adds a note; it must be written nowhere. */
const SECRET = "sk-notes-planted-5e0c1d";
const PLANTED = "llm_and_mcp_recovered";

/**
 * Every example but the planted one (the table's and the session-fault ones) runs once, two at a
 * time, in one `agentchaos suite` process of the built CLI before the tests; then the example
 * that adds a note runs alone through `agentchaos run` with the planted secret, so its row and
 * the secret test share one real run of the command users type. Every test about an example
 * reads its run.
 */
const SCENARIO = (name: string) => `examples/mcp/scenarios/${name}.yaml`;
let suite: SuiteOutcome;
let planted: { outputDir: string; run: CliResult };
beforeAll(async () => {
  const files = [
    ...TABLE.map(([name]) => name).filter((name) => name !== PLANTED),
    ...SESSION_FAULT_EXAMPLES,
  ].map(SCENARIO);
  suite = await runSuite(files, join(out.path, "suite"));
  const outputDir = join(out.path, PLANTED);
  const run = await runBuiltCli(["run", SCENARIO(PLANTED), "--output-dir", outputDir], {
    env: { NOTES_PRIVATE_TEXT: SECRET },
  });
  planted = { outputDir, run };
}, 240_000);

/** An example's exit code, report and events, from the suite or from its own run. */
function exampleRun(name: string): { code: number | null; terminal: string; runDir: string } {
  if (name === PLANTED) {
    const { outputDir, run } = planted;
    return { code: run.code, terminal: run.stdout, runDir: onlyRunDir(outputDir) };
  }
  const run = runOf(suite, SCENARIO(name));
  return { code: run.exitCode, terminal: suite.cli.stdout, runDir: run.runDir };
}

describe("the MCP examples, through the built CLI", () => {
  it("runs the examples of the suite with no error, its exit code 1 for the failed ones", () => {
    expect(suite.cli.stderr).toBe("");
    expect(suite.cli.code, suite.cli.stdout).toBe(1);
    expect(suite.runs.size).toBe(TABLE.length - 1 + SESSION_FAULT_EXAMPLES.length);
  });

  it.each(TABLE)("%s ends %s / %s with exit %i", (name, result, reason, exit) => {
    const { code, terminal, runDir } = exampleRun(name);
    expect(code, terminal).toBe(exit);
    const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
    expect(report).toMatchObject({ result, reason_code: reason });
    const events = eventsOf(runDir);
    const ended = events.filter((event) => event.type === "SESSION_ENDED").length;
    expect(ended).toBe(serverPids(events).length);
    for (const pid of serverPids(events)) expect(processAlive(pid)).toBe(false);
  });

  it("keeps planted tool arguments out of the events, the report, every run file and the terminal", () => {
    const { outputDir, run } = planted;
    expect(run.code).toBe(0);
    const runDir = onlyRunDir(outputDir);
    const added = eventsOf(runDir).filter((event) => event.payload.path === "add_note");
    expect(added).toHaveLength(1);
    expect(allText(runDir)).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it("leaves no MCP server behind when the run is interrupted", async () => {
    const outputDir = join(out.path, "interrupted");
    let sent = false;
    const run = await runBuiltCli(
      ["run", "examples/mcp/scenarios/stdio_no_response_naive_timeout.yaml", "--output-dir", outputDir],
      {
        onStdout: (text, child) => {
          if (!sent && text.includes("list_notes:")) {
            sent = true;
            child.kill("SIGINT");
          }
        },
      },
    );
    expect(run.code).toBe(130);
    const events = eventsOf(onlyRunDir(outputDir));
    expect(serverPids(events)).toHaveLength(1);
    for (const pid of serverPids(events)) expect(processAlive(pid)).toBe(false);
    expect(events.filter((event) => event.type === "SESSION_ENDED")).toHaveLength(1);
  });
});

/**
 * One example's run: its exit code, report and events, and what its agent printed (the lines
 * `agentchaos run` shows live). Every MCP server its shims started has ended.
 */
function run(name: (typeof SESSION_FAULT_EXAMPLES)[number]) {
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

/** What every malformed-answer example shows (stdio or HTTP): the retry after `problem`. */
function expectMalformedRecovered({ cli, report, events }: Outcome, problem: string): void {
  expect(cli.code).toBe(0);
  expect(report).toMatchObject({
    schema_version: 5,
    result: "RECOVERED",
    reason_code: "RECOVERY_OBSERVED",
  });
  expect(failures(events)).toEqual([["injected_malformed", null]]);
  const injected = events.find((event) => event.type === "FAULT_INJECTED");
  expect(injected?.payload.parameters).toEqual({ shape: "not_json" });
  expect(cli.stdout).toContain(`read_note: attempt 1 failed (${problem}), retrying`);
}

describe("the MCP session-fault examples, through the built CLI", () => {
  it("stdio_tools_changed_relist: the agent lists its tools again and completes (PASSED / FAULT_TOLERATED)", () => {
    expectRelisted(run("stdio_tools_changed_relist"));
  });

  it("stdio_tools_changed_stale: the agent calls the removed tool, gets -32602 and fails", () => {
    expectStale(run("stdio_tools_changed_stale"));
  });

  it("stdio_malformed_recovered: a not_json answer, the SDK's deadline, a retry (RECOVERED)", () => {
    expectMalformedRecovered(run("stdio_malformed_recovered"), "timed out");
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
    // Unlike stdio, the transport fails the call at once: the body cannot be parsed.
    expectMalformedRecovered(run("http_malformed_recovered"), "request failed");
  });
});
