import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/index.js";
import type { SuiteDocument } from "../../src/report/suite-document.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { type Captured, runInProcess } from "../helpers/in-process.js";
import { freePort } from "../helpers/scenario-files.js";
import { tempDir } from "../helpers/temp.js";
import { barrierScenario, exitScenario, lockScenario, recoveringScenario } from "../suite/scenarios.js";

const dir = testFolder("each");

async function onlySuite(outputDir: string): Promise<{ folder: string; document: SuiteDocument }> {
  const [id, ...more] = await readdir(outputDir);
  if (id === undefined || more.length > 0) throw new Error("expected one suite folder");
  const folder = join(outputDir, id);
  return { folder, document: JSON.parse(await readFile(join(folder, "suite.json"), "utf8")) };
}

async function scenariosFolder(): Promise<string> {
  const folder = join(dir.path, "scenarios");
  await mkdir(folder, { recursive: true });
  return folder;
}

describe("agentchaos suite", () => {
  it("never runs two scenarios naming the same fixed port at once, and runs the others in parallel", async () => {
    const scenarios = await scenariosFolder();
    const locks = join(dir.path, "locks");
    await mkdir(locks);
    const [shared, c, d] = [await freePort(), await freePort(), await freePort()];
    await barrierScenario(scenarios, "1-barrier-c", c, locks, "c", "d");
    await barrierScenario(scenarios, "2-barrier-d", d, locks, "d", "c");
    await lockScenario(scenarios, "3-lock-a", shared, locks);
    await lockScenario(scenarios, "4-lock-b", shared, locks);
    await lockScenario(scenarios, "5-lock-c", shared, locks);
    const out = join(dir.path, "suites");
    const run = await runInProcess(["suite", scenarios, "--jobs", "3", "--output-dir", out], dir.path);
    const { document } = await onlySuite(out);
    expect(document.entries.map((entry) => [entry.name, entry.result])).toEqual([
      ["1-barrier-c", "PASSED"],
      ["2-barrier-d", "PASSED"],
      ["3-lock-a", "PASSED"],
      ["4-lock-b", "PASSED"],
      ["5-lock-c", "PASSED"],
    ]);
    expect(run.code).toBe(0);
  });

  it("would see an overlap: two lock holders on different ports run at once and one fails", async () => {
    const scenarios = await scenariosFolder();
    const locks = join(dir.path, "locks");
    await mkdir(locks);
    await lockScenario(scenarios, "lock-a", await freePort(), locks, "same");
    await lockScenario(scenarios, "lock-b", await freePort(), locks, "same");
    const out = join(dir.path, "suites");
    const run = await runInProcess(
      ["suite", scenarios, "--jobs", "2", "--output-dir", out, "--quiet"],
      dir.path,
    );
    const { document } = await onlySuite(out);
    expect(document.entries.map((entry) => entry.result).sort()).toEqual(["FAILED", "PASSED"]);
    expect(run.code).toBe(1);
  });

  it("records an invalid scenario as a failed SCENARIO_INVALID entry and still runs the rest (exit 1)", async () => {
    const scenarios = await scenariosFolder();
    await exitScenario(scenarios, "good", "good one", await freePort());
    await writeFile(join(scenarios, "broken.yaml"), "schema_version: 1\nname: broken one\nworkload: 12\n");
    await writeFile(join(scenarios, "not-yaml.yml"), "schema_version: 2\na: [\n");
    await writeFile(join(scenarios, "notes.txt"), "not a scenario");
    const out = join(dir.path, "suites");
    const run = await runInProcess(
      ["suite", "scenarios", "--output-dir", out, "--reporter", "junit,ctrf"],
      dir.path,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    const { folder, document } = await onlySuite(out);
    expect(document.entries.map((entry) => entry.path)).toEqual([
      "scenarios/broken.yaml",
      "scenarios/good.yaml",
      "scenarios/not-yaml.yml",
    ]);
    const [broken, good, notYaml] = document.entries;
    expect(broken).toMatchObject({
      name: "broken one",
      result: "FAILED",
      reason_code: "SCENARIO_INVALID",
      exit_code: 2,
      duration_ms: 0,
      run_folder: null,
    });
    expect(broken?.problems?.length).toBeGreaterThan(0);
    expect(notYaml).toMatchObject({ name: "not-yaml", reason_code: "SCENARIO_INVALID" });
    expect(good).toMatchObject({
      name: "good one",
      result: "PASSED",
      reason_code: "BASELINE_SUCCEEDED",
      exit_code: 0,
    });
    expect((await readdir(folder)).sort()).toEqual(
      ["ctrf.json", good?.run_folder, "junit.xml", "suite.json"].sort(),
    );
    const junit = await readFile(join(folder, "junit.xml"), "utf8");
    expect(junit).toContain('<error message="SCENARIO_INVALID" type="SCENARIO_INVALID">');
    expect(run.stdout).toMatch(/3 scenarios: 1 passed, 0 recovered, 2 failed\n/);
  });

  it("runs only the YAML files of a folder with a top-level schema_version, and says in one line what it skipped", async () => {
    const scenarios = await scenariosFolder();
    await exitScenario(scenarios, "good", "good one", await freePort());
    await writeFile(
      join(scenarios, "fake-llm.yaml"),
      "- when: {user_contains: weather}\n  answer: {text: sunny}\n",
    );
    await writeFile(join(scenarios, "ci.yml"), "jobs:\n  test: {runs-on: x}\n");
    const out = join(dir.path, "suites");
    const run = await runInProcess(["suite", "scenarios", "--output-dir", out], dir.path);
    expect(run.code).toBe(0);
    const { document } = await onlySuite(out);
    expect(document.entries.map((entry) => [entry.path, entry.result])).toEqual([
      ["scenarios/good.yaml", "PASSED"],
    ]);
    expect(run.stdout).toContain(
      "Scenarios: 1\nSkipped 2 YAML files with no top-level schema_version key, so not a scenario (scenarios/ci.yml, scenarios/fake-llm.yaml)\n",
    );
    // A file named on the command line is always a scenario.
    const named = await runInProcess(["suite", "scenarios/fake-llm.yaml", "--output-dir", out], dir.path);
    expect(named.code).toBe(1);
    expect(named.stdout).toMatch(/FAILED {5}SCENARIO_INVALID/);
  });

  it("--exclude (repeatable, base names too) and --grep-invert leave scenarios out", async () => {
    const scenarios = await scenariosFolder();
    await mkdir(join(scenarios, "wip"));
    await exitScenario(scenarios, "keep", "keep", await freePort());
    await exitScenario(scenarios, "slow-one", "slow one", await freePort());
    await exitScenario(join(scenarios, "wip"), "draft", "draft", await freePort(), 1);
    await exitScenario(scenarios, "broken.draft", "broken draft", await freePort(), 1);
    const out = join(dir.path, "suites");
    const run = await runInProcess(
      [
        "suite",
        "scenarios",
        "--exclude",
        "scenarios/wip/**",
        "--exclude=*.draft.yaml",
        "--grep-invert",
        "slow",
        "--output-dir",
        out,
      ],
      dir.path,
    );
    expect(run.code).toBe(0);
    const { document } = await onlySuite(out);
    expect(document.entries.map((entry) => entry.name)).toEqual(["keep"]);
    expect(run.stdout).toContain("Skipped 2 files matching --exclude\n");
    const none = await runInProcess(["suite", "scenarios", "--grep-invert", "e"], dir.path);
    expect(none).toMatchObject({
      code: 2,
      stderr: "Cannot run suite: no scenario matches --grep-invert 'e'\n",
    });
    const onlyExcluded = await runInProcess(["suite", "scenarios/wip", "--exclude", "draft.yaml"], dir.path);
    expect(onlyExcluded).toMatchObject({
      code: 2,
      stderr: "Cannot run suite: no scenario found in scenarios/wip (skipped 1 file matching --exclude)\n",
    });
  });

  it("gives a one-line message and exit 2 for bad usage and no scenario, exit 3 for an output folder it cannot create", async () => {
    const scenarios = await scenariosFolder();
    await mkdir(join(scenarios, "empty"));
    await exitScenario(scenarios, "one", "one", await freePort());
    const cases: [string[], number, RegExp][] = [
      [["suite", "scenarios/empty"], 2, /^Cannot run suite: no scenario found in scenarios\/empty\n$/],
      [["suite", "missing"], 2, /^Cannot run suite: path not found: missing\n$/],
      [["suite", "scenarios", "--grep", "zzz"], 2, /^Cannot run suite: no scenario matches --grep 'zzz'\n$/],
      [
        ["suite", "scenarios", "--shard", "3/2"],
        2,
        /^Error: --shard needs I\/N with 1 <= I <= N, got '3\/2'\n/,
      ],
      [["suite", "scenarios", "--jobs", "0"], 2, /^Error: --jobs needs a positive integer, got '0'\n/],
      [["suite", "scenarios", "--reporter", "junit,xml"], 2, /^Error: unknown reporter 'xml'/],
      [["suite", "scenarios", "--fail-fast=yes"], 2, /^Error: --fail-fast takes no value\n/],
      [["suite"], 2, /^Error: 'suite' needs a scenario file or folder\n/],
      [
        ["suite", "scenarios", "--output-dir", "scenarios/one.yaml/x"],
        3,
        /^Cannot run suite: cannot create output folder \(ENOTDIR\)\n$/,
      ],
    ];
    for (const [argv, code, stderr] of cases) {
      const run = await runInProcess(argv, dir.path);
      expect({ argv, code: run.code }).toEqual({ argv, code });
      expect(run.stderr).toMatch(stderr);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("--fail-fast starts nothing after the first failure; --quiet prints only the summary", async () => {
    const scenarios = await scenariosFolder();
    await exitScenario(scenarios, "1-fails", "fails", await freePort(), 1);
    await exitScenario(scenarios, "2-passes", "passes", await freePort());
    await exitScenario(scenarios, "3-passes", "passes too", await freePort());
    const out = join(dir.path, "suites");
    const run = await runInProcess(
      ["suite", scenarios, "--jobs", "1", "--fail-fast", "--quiet", "--output-dir", out],
      dir.path,
    );
    expect(run.code).toBe(1);
    const { document } = await onlySuite(out);
    expect(document.entries.map((entry) => entry.name)).toEqual(["fails"]);
    expect(run.stdout.startsWith("\nSuite complete.\n\nRESULT")).toBe(true);
    expect(run.stdout).toContain("1 scenario: 0 passed, 0 recovered, 1 failed (2 not started)\n");
  });

  it("--grep and --shard choose the scenarios; the shard is recorded", async () => {
    const scenarios = await scenariosFolder();
    for (const name of ["a", "b", "c", "d", "e"])
      await exitScenario(scenarios, name, `pick-${name}`, await freePort());
    await exitScenario(scenarios, "other", "skip-me", await freePort());
    const out = join(dir.path, "suites");
    const run = await runInProcess(
      ["suite", scenarios, "--grep", "pick-", "--shard", "2/2", "--output-dir", out],
      dir.path,
    );
    expect(run.code).toBe(0);
    const { document } = await onlySuite(out);
    expect(document.shard).toEqual({ index: 2, total: 2 });
    expect(document.entries.map((entry) => entry.name)).toEqual(["pick-d", "pick-e"]);
  });

  describe("one recovering scenario", () => {
    // Its piped suite run, read by both tests below (the same command, flags and output).
    let shared: { path: string; remove: () => Promise<void> };
    let scenarios: string;
    let piped: { run: Captured; out: string };
    beforeAll(async () => {
      shared = await tempDir();
      scenarios = join(shared.path, "scenarios");
      await mkdir(scenarios);
      await recoveringScenario(scenarios, "recovers", "recovers", await freePort());
      const out = join(shared.path, "suites");
      piped = { run: await runInProcess(["suite", scenarios, "--output-dir", out], shared.path), out };
    }, 60_000);
    afterAll(async () => {
      await shared?.remove();
    });

    it("prints a live done/total counter and colours on a TTY only, and no colour with NO_COLOR", async () => {
      const runWith = async (isTTY: boolean, env: Record<string, string>) => {
        let stdout = "";
        const code = await runCli(["suite", scenarios, "--output-dir", join(dir.path, "suites")], {
          stdout: { write: (text: string) => (stdout += text), isTTY },
          stderr: { write: () => true },
          cwd: dir.path,
          env,
        });
        return { code, stdout };
      };
      const tty = await runWith(true, {});
      expect(tty.code).toBe(0);
      expect(tty.stdout).toContain("0/1 done");
      expect(tty.stdout).toContain("\r\u001b[K\u001b[36mRECOVERED");
      const noColour = await runWith(true, { NO_COLOR: "1" });
      expect(noColour.stdout).toContain("1/1 done");
      for (const code of [31, 32, 36]) expect(noColour.stdout).not.toContain(`\u001b[${code}m`);
      const pipe = piped.run;
      expect(pipe.stdout).not.toContain("\u001b");
      expect(pipe.stdout).not.toContain(" done");
      expect(pipe.stdout).toMatch(
        /^Agent Chaos suite\n\nScenarios: 1\nJobs: \d+\nOutput: .+\n\nRECOVERED {2}RECOVERY_OBSERVED {13}/,
      );
    });

    it("writes suite.json, junit.xml and index.html by default, and report.html in each run folder", async () => {
      const { run, out } = piped;
      expect(run.code).toBe(0);
      const { folder, document } = await onlySuite(out);
      const runFolder = document.entries[0]?.run_folder as string;
      expect((await readdir(folder)).sort()).toEqual(
        ["index.html", "junit.xml", runFolder, "suite.json"].sort(),
      );
      expect(await readdir(join(folder, runFolder))).toContain("report.html");
      expect(run.stdout).toContain(
        `\nWritten:\n${join(folder, "suite.json")}\n${join(folder, "junit.xml")}\n${join(folder, "index.html")}\n`,
      );
      expect((await stat(join(folder, "suite.json"))).isFile()).toBe(true);
    });
  });

  it("--trials runs each scenario N times into its own trials folder and judges it by its pass rate (suite.json version 2)", async () => {
    const scenarios = await scenariosFolder();
    await recoveringScenario(scenarios, "recovers", "recovers", await freePort());
    await writeFile(join(scenarios, "broken.yaml"), "schema_version: 1\nname: broken one\nworkload: 12\n");
    const out = join(dir.path, "suites");
    const run = await runBuiltCli(
      [
        "suite",
        "examples/trials/flaky_agent.yaml",
        scenarios,
        "--trials",
        "2",
        "--jobs",
        "2",
        "--reporter",
        "junit,ctrf",
        "--output-dir",
        out,
      ],
      { env: { FLAKY_AGENT_COUNTER: join(dir.path, "flaky.count") }, timeoutMs: 170_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const { folder, document } = await onlySuite(out);
    expect(document.schema_version).toBe(2);
    const byName = Object.fromEntries(document.entries.map((entry) => [entry.name, entry]));
    expect(byName["flaky-agent"]).toMatchObject({
      result: "FAILED",
      reason_code: "flaky",
      exit_code: 1,
      trials: { trials: 2, passed: 1, class: "flaky", min_pass_rate: 1 },
    });
    expect(byName.recovers).toMatchObject({
      result: "PASSED",
      reason_code: "stable_pass",
      trials: { trials: 2, passed: 2, class: "stable_pass" },
    });
    expect(byName["broken one"]).toMatchObject({ reason_code: "SCENARIO_INVALID", run_folder: null });
    expect(byName["broken one"]).not.toHaveProperty("trials");
    for (const entry of [byName["flaky-agent"], byName.recovers]) {
      const trialsFolder = join(folder, entry?.run_folder as string);
      const runFolders = entry?.trials?.runs.map((trial) => trial.run_folder?.split("/")[1]) ?? [];
      expect((await readdir(trialsFolder)).sort()).toEqual([...runFolders, "trials.json"].sort());
      const saved = JSON.parse(await readFile(join(trialsFolder, "trials.json"), "utf8"));
      expect(saved).toMatchObject({ trials: 2, requested: 2, class: entry?.trials?.class });
    }
    expect(
      run.stdout.split("\n").filter((line) => / trial \d of 2 {2}(flaky-agent|recovers)$/.test(line)).length,
    ).toBe(4);
    expect(run.stdout).toContain(
      "\n           2 trials: 1 passed, 1 failed (RECOVERY_NOT_OBSERVED ×1) — flaky, pass rate 0.50 [0.0945, 0.9055]\n",
    );
    expect(run.stdout).toContain("3 scenarios: 1 passed, 0 recovered, 2 failed, 1 flaky\n");
    const junit = await readFile(join(folder, "junit.xml"), "utf8");
    expect(junit).toContain('type="flaky"');
    const ctrf = JSON.parse(await readFile(join(folder, "ctrf.json"), "utf8"));
    expect(ctrf.results.summary.flaky).toBe(1);
  }, 180_000);
});
