/**
 * A run that times out while the agent still waits on an unanswered fault, before fail_fast's
 * max_ms (docs/checks.md): enforced, it is AGENT_HUNG instead of WORKLOAD_TIMED_OUT; reported,
 * the timeout stays the reason. Through the built CLI, with the naive MCP agent of the examples.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runsAhead } from "../helpers/runs-ahead.js";

const dir = testFolder("all");

function scenario(mode: "enforce" | "report"): string {
  const examples = JSON.stringify(join(ROOT, "examples/mcp"));
  return `schema_version: 2
name: timeout-after-unanswered-fault
dependencies:
  notes:
    type: mcp_stdio
    command: [node, notes-server.mjs]
    cwd: ${examples}
workload:
  name: naive-agent
  command: [node, naive-agent.mjs]
  cwd: ${examples}
faults:
  - id: read-lost
    type: mcp_no_response
    target: { method: tools/call, name: read_note }
    trigger: { occurrence: 1 }
checks:
  fail_fast: ${mode}
success:
  exit_code: 0
timeout_seconds: 8
`;
}

async function runOnce(mode: "enforce" | "report") {
  const file = join(dir.path, `${mode}.yaml`);
  writeFileSync(file, scenario(mode));
  const out = join(dir.path, `runs-${mode}`);
  const cli = await runBuiltCli(["run", file, "--output-dir", out]);
  const report = JSON.parse(readFileSync(join(onlyRunDir(out), "report.json"), "utf8"));
  return { cli, report };
}

/** Both runs wait for the time limit, so they wait side by side. */
const run = runsAhead(["enforce", "report"] as const, runOnce);

describe("a timeout right after an unanswered fault", () => {
  it("is AGENT_HUNG with an enforced fail_fast whose max_ms (default 30000) was not reached", async () => {
    const { cli, report } = await run("enforce");
    expect(cli.code).toBe(1);
    expect([report.result, report.reason_code]).toEqual(["FAILED", "AGENT_HUNG"]);
    expect(report.workload.timed_out).toBe(true);
    expect(cli.stdout).toMatch(
      /after operation notes tools\/call read_note #1 failed, the workload did nothing for \d+ ms, until it was stopped/,
    );
    // inspect reads the report back with the same reason.
    const inspect = await runBuiltCli(["inspect", onlyRunDir(join(dir.path, "runs-enforce"))]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain("Reason: AGENT_HUNG");
  });

  it("stays WORKLOAD_TIMED_OUT when fail_fast only reports, with the finding listed", async () => {
    const { cli, report } = await run("report");
    expect(cli.code).toBe(1);
    expect(report.reason_code).toBe("WORKLOAD_TIMED_OUT");
    const failFast = report.checks.find((check: { name: string }) => check.name === "fail_fast");
    expect(failFast).toMatchObject({ mode: "report", passed: false });
    expect(failFast.findings).toHaveLength(1);
  });
});
