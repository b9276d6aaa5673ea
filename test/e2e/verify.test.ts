import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { runCliHere } from "../helpers/in-process-cli.js";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

interface Line {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

function runOf(out: string) {
  const runDir = onlyRunDir(out);
  const events = readFileSync(join(runDir, "events.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Line & { schema_version: number });
  const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
  return { runDir, events, report };
}

/** A scenario with one managed http dependency `desk`, the given workload and verify lines. */
async function scenario(workload: string[], verify: string, extra = ""): Promise<string> {
  return writeScenario(
    dir.path,
    "verify",
    `schema_version: 2
name: verify-run
dependencies:
  desk:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, join(PROGRAMS, "http-ok.mjs"), "--port", "{port}"])}
      readiness: {path: /health}
workload:
  command: ${yamlList(workload)}
${verify}
success:
  exit_code: 0
${extra}`,
  );
}

const node = (code: string) => [process.execPath, "-e", code];

// Most runs go through the CLI code in this process; the interrupted run and `validate` are about
// the executable (its signal handling, its exit code and error text), so they spawn it.

describe("verify", () => {
  it("runs after the workload with the dependency's own URL and the workload's stdout path, bypassing the proxy", async () => {
    const file = await scenario(
      node(
        "console.log('done'); require('http').get(process.env.AGENTCHAOS_DESK_URL + '/health', (r) => r.resume())",
      ),
      `verify:
  command: ${yamlList(
    node(
      "const fs=require('fs');require('http').get(process.env.AGENTCHAOS_DESK_UPSTREAM_URL+'/health',r=>{r.resume();console.log(r.statusCode, process.env.AGENTCHAOS_DESK_UPSTREAM_URL, fs.readFileSync(process.env.AGENTCHAOS_WORKLOAD_STDOUT,'utf8').trim())})",
    ),
  )}`,
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(0);
    const { runDir, events, report } = runOf(out);
    expect(new Set(events.map((event) => event.schema_version))).toEqual(new Set([3]));
    const types = events.map((event) => event.type);
    const verifyAt = types.indexOf("VERIFY_COMPLETED");
    expect(verifyAt).toBeGreaterThan(types.indexOf("WORKLOAD_COMPLETED"));
    expect(verifyAt).toBeLessThan(types.indexOf("DEPENDENCY_STOPPED"));
    // Only the workload's request went through the proxy.
    expect(types.filter((type) => type === "OPERATION_OBSERVED")).toHaveLength(1);
    const started = events.find((event) => event.type === "DEPENDENCY_STARTED")?.payload.base_url as string;
    expect(readFileSync(join(runDir, "verify.stdout.log"), "utf8")).toBe(`200 ${started} done\n`);
    expect(report.verify).toMatchObject({ exit_code: 0, timed_out: false, passed: true });
    expect(report.reason_code).toBe("BASELINE_SUCCEEDED");
    expect(result.stdout).toContain("Verify:                 passed (exit code 0)\n");
  });

  it("a verify that fails after a met success is CLAIMED_SUCCESS; one past its time limit is stopped and fails the same way", async () => {
    const file = await scenario(
      node("console.log('created')"),
      `verify:\n  command: ${yamlList(node("setTimeout(() => {}, 600000)"))}\n  timeout_seconds: 1`,
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(1);
    const { events, report } = runOf(out);
    expect(events.find((event) => event.type === "VERIFY_COMPLETED")?.payload).toMatchObject({
      exit_code: null,
      timed_out: true,
    });
    expect([report.result, report.reason_code]).toEqual(["FAILED", "CLAIMED_SUCCESS"]);
    expect(report.diagnostics).toEqual(["the agent reported success; verify timed out"]);
  });

  it("a workload that failed keeps its reason, and one that timed out gets no verify", async () => {
    const failed = await scenario(
      node("process.exit(4)"),
      `verify:\n  command: ${yamlList(node("process.exit(1)"))}`,
    );
    const out = join(dir.path, "failed");
    await runCliHere(["run", failed, "--output-dir", out]);
    expect(runOf(out).report).toMatchObject({
      reason_code: "WORKLOAD_EXIT_CODE_MISMATCH",
      verify: { exit_code: 1, passed: false },
    });
    const slow = await scenario(
      [process.execPath, join(PROGRAMS, "forever.mjs")],
      `verify:\n  command: ${yamlList(node("0"))}`,
      "timeout_seconds: 1\n",
    );
    const slowOut = join(dir.path, "slow");
    await runCliHere(["run", slow, "--output-dir", slowOut]);
    const run = runOf(slowOut);
    expect(run.events.map((event) => event.type)).not.toContain("VERIFY_COMPLETED");
    expect(run.report).toMatchObject({ reason_code: "WORKLOAD_TIMED_OUT", verify: null });
    expect(existsSync(join(run.runDir, "verify.stdout.log"))).toBe(false);
  });

  it("a verify command that cannot be started is a setup error, exit 3", async () => {
    const file = await scenario(node("0"), "verify:\n  command: [agentchaos-no-such-program]");
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const { report } = runOf(out);
    expect(report.reason_code).toBe("WORKLOAD_SPAWN_FAILED");
    expect(report.diagnostics[0]).toMatch(
      /^verify command could not be started: command "agentchaos-no-such-program"/,
    );
  });

  it("an interruption during verify stops its whole process group and the run exits 130", async () => {
    const pids = join(dir.path, "verify-pids");
    const file = await scenario(
      node("0"),
      `verify:\n  command: ${yamlList(
        node(
          `const {spawn}=require('child_process');const c=spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('fs').writeFileSync(${JSON.stringify(pids)},process.pid+' '+c.pid);setInterval(()=>{},1000)`,
        ),
      )}\n  timeout_seconds: 600`,
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out], {
      onSpawn: (child) => {
        void eventually(() => existsSync(pids) && readFileSync(pids, "utf8").includes(" "), {
          what: "the verify command started its child",
          timeoutMs: 30_000,
        }).then(() => child.kill("SIGINT"));
      },
    });
    expect(result.code).toBe(130);
    const started = readFileSync(pids, "utf8").split(" ").map(Number);
    await eventually(() => started.every((pid) => !processAlive(pid)), {
      what: "verify and its child ended",
    });
    expect(runOf(out).events.map((event) => event.type)).not.toContain("VERIFY_COMPLETED");
  });

  it("validate refuses a verify without an argv command, positioned, exit 2", async () => {
    const file = await scenario(node("0"), "verify:\n  command: node check.mjs\n  timeout_seconds: 900");
    const result = await runBuiltCli(["validate", file]);
    expect(result.code).toBe(2);
    expect(`${result.stdout}${result.stderr}`).toContain("verify.command");
    expect(`${result.stdout}${result.stderr}`).toContain("verify.timeout_seconds");
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
  });
});
