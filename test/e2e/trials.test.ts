import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TrialsDocument } from "../../src/trials/document.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { expectIsolatedRuns } from "../helpers/isolated-runs.js";
import { fixtureDependency, freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";
import { exitScenario } from "../suite/scenarios.js";

const dir = testFolder("each");
const STEADY = "examples/trials/steady_agent.yaml";
const FLAKY = "examples/trials/flaky_agent.yaml";

async function onlyTrials(outputDir: string): Promise<{ folder: string; document: TrialsDocument }> {
  const [id, ...more] = await readdir(outputDir);
  if (id === undefined || more.length > 0) throw new Error("expected one trials folder");
  const folder = join(outputDir, id);
  return { folder, document: JSON.parse(await readFile(join(folder, "trials.json"), "utf8")) };
}

describe("agentchaos run --trials", () => {
  it("finds the steady example stable_pass over 4 trials side by side, each a run folder under one trials folder, the same fault in each, the runs kept apart", async () => {
    const out = join(dir.path, "out");
    const result = await runBuiltCli(["run", STEADY, "--trials", "4", "--jobs", "4", "--output-dir", out], {
      timeoutMs: 170_000,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { folder, document } = await onlyTrials(out);
    expect(document).toMatchObject({
      schema_version: 1,
      scenario: { path: STEADY, name: "steady-agent" },
      trials: 4,
      passed: 4,
      pass_rate: 1,
      pass_hat_k: true,
      pass_at_k: true,
      wilson_95: [0.5101, 1],
      class: "stable_pass",
      outcomes: [{ result: "RECOVERED", reason_code: "RECOVERY_OBSERVED", count: 4 }],
      min_pass_rate: 1,
      interrupted: false,
    });
    expect(Object.keys(document).slice(0, 11)).toEqual([
      "schema_version",
      "scenario",
      "trials",
      "passed",
      "pass_rate",
      "pass_hat_k",
      "pass_at_k",
      "wilson_95",
      "class",
      "outcomes",
      "runs",
    ]);
    expect(document.runs.map((run) => run.trial)).toEqual([1, 2, 3, 4]);
    const runFolders = document.runs.map((run) => run.run_folder as string);
    expect((await readdir(folder)).sort()).toEqual([...runFolders, "trials.json"].sort());
    for (const runFolder of runFolders) {
      const report = JSON.parse(await readFile(join(folder, runFolder, "report.json"), "utf8"));
      expect(
        report.faults.map((fault: { id: string; injected: number }) => [fault.id, fault.injected]),
      ).toEqual([["customer-503", 1]]);
    }
    const trialLines = result.stdout.split("\n").filter((line) => / trial \d+ of 4$/.test(line));
    expect(trialLines.length).toBe(4);
    expect(result.stdout).toContain(
      "\n4 trials: 4 passed, 0 failed — stable_pass, pass rate 1.00 [0.5101, 1.0000]\n",
    );
    expect(result.stdout).not.toContain(" done");
    // Four runs at once in one process: each its own proxy, recorder, dependency and fault state.
    await expectIsolatedRuns(folder, runFolders);
  }, 180_000);

  it("finds the flaky example flaky with exactly 2 of 4 (exit 0 at --min-pass-rate 0.5), and exits 1 below the default minimum", async () => {
    const env = { FLAKY_AGENT_COUNTER: join(dir.path, "flaky.count") };
    const out = join(dir.path, "out");
    const result = await runBuiltCli(
      ["run", FLAKY, "--trials", "4", "--jobs", "2", "--min-pass-rate", "0.5", "--output-dir", out],
      { env, timeoutMs: 170_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { document } = await onlyTrials(out);
    expect(document).toMatchObject({
      trials: 4,
      passed: 2,
      pass_rate: 0.5,
      pass_hat_k: false,
      pass_at_k: true,
      wilson_95: [0.15, 0.85],
      class: "flaky",
      min_pass_rate: 0.5,
      passes: true,
    });
    expect([...document.outcomes].sort((a, b) => a.result.localeCompare(b.result))).toEqual([
      { result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", count: 2 },
      { result: "RECOVERED", reason_code: "RECOVERY_OBSERVED", count: 2 },
    ]);
    expect(result.stdout).toContain(
      "\n4 trials: 2 passed, 2 failed (RECOVERY_NOT_OBSERVED ×2) — flaky, pass rate 0.50 [0.1500, 0.8500]\n",
    );
    expect(result.stdout).toContain("\nMinimum pass rate: 0.5 (reached)\n");

    const again = await runBuiltCli(
      ["run", FLAKY, "--trials", "2", "--output-dir", join(dir.path, "again")],
      {
        env,
        timeoutMs: 60_000,
      },
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("2 trials: 1 passed, 1 failed (RECOVERY_NOT_OBSERVED ×1) — flaky");
    expect(again.stdout).toContain("\nMinimum pass rate: 1 (not reached)\n");
  }, 240_000);

  it("exits 3 when every trial ended in a setup error", async () => {
    const port = await freePort();
    const scenario = await writeScenario(
      dir.path,
      "no-dependency",
      `schema_version: 1\nname: no-dependency\ndependency:\n  type: http\n  base_url: http://127.0.0.1:${port}\n  start:\n    command: ${yamlList([process.execPath, join(PROGRAMS, "exit-code.mjs"), "1"])}\n    readiness:\n      path: /health\n      timeout_seconds: 5\nworkload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "exit-code.mjs"), "0"])}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
    );
    const out = join(dir.path, "out");
    const run = await runInProcess(["run", scenario, "--trials", "2", "--output-dir", out], dir.path);
    expect(run.code).toBe(3);
    const { document } = await onlyTrials(out);
    expect(document).toMatchObject({ trials: 2, passed: 0, class: "stable_fail" });
    expect(document.outcomes).toEqual([
      { result: "FAILED", reason_code: "DEPENDENCY_START_FAILED", count: 2 },
    ]);
  }, 60_000);

  it("runs once, exactly as without the option, with --trials 1", async () => {
    const scenario = await writeScenario(
      dir.path,
      "recovers",
      `schema_version: 1\nname: recovers\n${fixtureDependency(await freePort())}workload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "retry-get.mjs")])}\nfault:\n  type: http_error\n  target:\n    path: /item\n  trigger:\n    occurrence: 1\n  status_code: 503\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
    );
    const plain = await runInProcess(["run", scenario, "--output-dir", join(dir.path, "plain")], dir.path);
    const one = await runInProcess(
      [
        "run",
        scenario,
        "--trials",
        "1",
        "--min-pass-rate",
        "0",
        "--jobs",
        "4",
        "--output-dir",
        join(dir.path, "one"),
      ],
      dir.path,
    );
    expect(one.code).toBe(plain.code);
    const [runId] = await readdir(join(dir.path, "one"));
    expect(await readdir(join(dir.path, "one", runId as string))).toContain("report.json");
    expect(await readdir(join(dir.path, "one", runId as string))).not.toContain("trials.json");
    // The same text, apart from the run folder, the times and the process ids.
    const normalized = (text: string, folder: string) =>
      text.replaceAll(join(dir.path, folder), "<out>").replace(/[0-9a-f]{8}|\d+/g, "0");
    expect(normalized(one.stdout, "one")).toBe(normalized(plain.stdout, "plain"));
  }, 60_000);

  it("refuses a number of trials or a minimum pass rate out of range with a one-line message and exit 2", async () => {
    const scenario = await exitScenario(dir.path, "quick", "quick", await freePort());
    const cases: [string[], RegExp][] = [
      [["--trials", "0"], /^Error: --trials needs an integer from 1 to 100, got '0'\n/],
      [["--trials", "101"], /^Error: --trials needs an integer from 1 to 100, got '101'\n/],
      [["--trials", "two"], /^Error: --trials needs an integer from 1 to 100, got 'two'\n/],
      [
        ["--trials", "3", "--min-pass-rate", "1.5"],
        /^Error: --min-pass-rate needs a number from 0 to 1, got '1.5'\n/,
      ],
      [["--trials", "3", "--min-pass-rate", "-1"], /^Error: --min-pass-rate needs a number from 0 to 1/],
      [["--trials", "3", "--jobs", "0"], /^Error: --jobs needs a positive integer, got '0'\n/],
    ];
    for (const command of ["run", "suite", "explore"]) {
      for (const [args, stderr] of cases) {
        if (command !== "run" && args.includes("--jobs")) continue;
        const run = await runInProcess([command, scenario, ...args], dir.path);
        expect({ command, args, code: run.code }).toEqual({ command, args, code: 2 });
        expect(run.stderr).toMatch(stderr);
      }
    }
    expect(await readdir(dir.path)).toEqual(["quick.yaml"]);
  });
});
