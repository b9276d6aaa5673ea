import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runsAhead } from "../helpers/runs-ahead.js";

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
 * Every example runs once, two at a time, before the tests; every test about an example reads
 * its run. The example that adds a note always runs with the planted secret, so its row and the
 * secret test share one run.
 */
const runExample = runsAhead(
  TABLE.map(([name]) => name),
  async (name) => {
    const outputDir = join(out.path, name);
    const run = await runBuiltCli(
      ["run", `examples/mcp/scenarios/${name}.yaml`, "--output-dir", outputDir],
      name === PLANTED ? { env: { NOTES_PRIVATE_TEXT: SECRET } } : {},
    );
    return { outputDir, run };
  },
  { concurrency: 2 },
);

describe("the MCP examples, through the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit) => {
    const { outputDir, run } = await runExample(name);
    expect(run.code, run.stdout).toBe(exit);
    const runDir = onlyRunDir(outputDir);
    const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
    expect(report).toMatchObject({ result, reason_code: reason });
    const events = eventsOf(runDir);
    const ended = events.filter((event) => event.type === "SESSION_ENDED").length;
    expect(ended).toBe(serverPids(events).length);
    for (const pid of serverPids(events)) expect(processAlive(pid)).toBe(false);
  });

  it("keeps planted tool arguments out of the events, the report, every run file and the terminal", async () => {
    const { outputDir, run } = await runExample(PLANTED);
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
