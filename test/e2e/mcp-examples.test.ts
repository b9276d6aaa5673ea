import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { type CliResult, onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runOf, runSuite, type SuiteOutcome } from "../helpers/suite-runs.js";

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
 * Every example but the planted one runs once, two at a time, in one `agentchaos suite` process of
 * the built CLI before the tests; then the example that adds a note runs alone through `agentchaos
 * run` with the planted secret, so its row and the secret test share one real run of the command
 * users type. Every test about an example reads its run.
 */
const SCENARIO = (name: string) => `examples/mcp/scenarios/${name}.yaml`;
let suite: SuiteOutcome;
let planted: { outputDir: string; run: CliResult };
beforeAll(async () => {
  const files = TABLE.map(([name]) => name)
    .filter((name) => name !== PLANTED)
    .map(SCENARIO);
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
    expect(suite.runs.size).toBe(TABLE.length - 1);
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
