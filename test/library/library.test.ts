import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  type AnyAgentChaosEvent,
  loadScenario,
  runExperiment,
  runSuite,
  runTrials,
  ScenarioError,
  SuiteError,
} from "../../src/index.js";
import { groupAlive } from "../../src/support/process-group.js";
import { testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { freePort, writeScenario } from "../helpers/scenario-files.js";
import { exitScenario, foreverScenario, recoveringScenario } from "../suite/scenarios.js";

const dir = testFolder("each");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the library API", () => {
  it("runExperiment runs a scenario file like `agentchaos run`, prints nothing, and reports every event", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const file = await recoveringScenario(dir.path, "recovers", "library-recovers", await freePort());
    const events: AnyAgentChaosEvent[] = [];
    const outcome = await runExperiment(file, {
      outputDir: join(dir.path, "runs"),
      onEvent: (event) => events.push(event),
    });
    expect(write).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", exitCode: 0 });
    expect(outcome.runFolder).toBe(join(dir.path, "runs", outcome.report.run_id));
    const saved = JSON.parse(await readFile(join(outcome.runFolder, "report.json"), "utf8"));
    expect(saved).toEqual(JSON.parse(JSON.stringify(outcome.report)));
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    expect(events[0]?.type).toBe("RUN_STARTED");
    expect(events.at(-1)?.type).toBe("RUN_COMPLETED");
    expect(await readdir(outcome.runFolder)).not.toContain("report.html");
  });

  it("runExperiment takes a loaded scenario too, and writes the reporters asked for", async () => {
    const scenario = await loadScenario(
      await exitScenario(dir.path, "fails", "library-fails", await freePort(), 4),
    );
    const outcome = await runExperiment(scenario, {
      outputDir: join(dir.path, "runs"),
      reporters: ["junit", "html"],
    });
    expect(outcome).toMatchObject({
      result: "FAILED",
      reasonCode: "WORKLOAD_EXIT_CODE_MISMATCH",
      exitCode: 1,
    });
    expect((await readdir(outcome.runFolder)).filter((name) => /\.(xml|html)$/.test(name)).sort()).toEqual([
      "junit.xml",
      "report.html",
    ]);
  });

  it("an aborted signal stops the experiment like SIGINT: exit code 130, no process left", async () => {
    const file = await foreverScenario(dir.path, "forever", await freePort());
    const controller = new AbortController();
    let pid = 0;
    const outcome = await runExperiment(file, {
      outputDir: join(dir.path, "runs"),
      signal: controller.signal,
      onEvent: (event) => {
        if (event.payload.kind === "WORKLOAD_STARTED") {
          pid = event.payload.pid;
          setImmediate(() => controller.abort());
        }
      },
    });
    expect(outcome.exitCode).toBe(130);
    expect(outcome.report.workload.interrupted).toBe(true);
    expect(pid).toBeGreaterThan(0);
    await eventually(() => !groupAlive(pid), { what: "the workload's process group ended" });
  });

  it("runExperiment takes a scenario written as an object in the file format, validated as a file is", async () => {
    const file = await recoveringScenario(dir.path, "as-object", "library-object", await freePort());
    const document = parse(await readFile(file, "utf8")) as { schema_version: number };
    const outcome = await runExperiment(document, { outputDir: join(dir.path, "object-runs") });
    expect(outcome).toMatchObject({ result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", exitCode: 0 });
    expect(outcome.report.scenario_name).toBe("library-object");
    expect(parse(await readFile(join(outcome.runFolder, "scenario.yaml"), "utf8"))).toEqual(document);

    const invalid = { ...document, timeout_seconds: "soon" };
    const error = await runExperiment(invalid, { outputDir: join(dir.path, "object-invalid") }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).problems.map((problem) => problem.path)).toEqual(["timeout_seconds"]);
    await expect(readdir(join(dir.path, "object-invalid"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("an invalid scenario is a ScenarioError and nothing is written", async () => {
    const file = await writeScenario(dir.path, "bad", "schema_version: 1\nname: bad\n");
    const error = await runExperiment(file, { outputDir: join(dir.path, "runs") }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).code).toBe("SCENARIO_INVALID");
    expect(await readdir(dir.path)).toEqual(["bad.yaml"]);
  });

  it("runSuite refuses a jobs value that is not a positive integer before anything runs, as runTrials does", async () => {
    await exitScenario(dir.path, "j", "suite-jobs", await freePort());
    for (const jobs of [0, -1, 1.5, Number.NaN]) {
      const error = await runSuite([dir.path], { outputDir: join(dir.path, "jobs-out"), jobs }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SuiteError);
      expect((error as SuiteError).code).toBe("SUITE_BAD_OPTION");
      expect((error as SuiteError).message).toContain("jobs must be a positive integer");
    }
    await expect(readdir(join(dir.path, "jobs-out"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("runSuite returns the suite.json document and throws a SuiteError when nothing is found", async () => {
    const scenarios = join(dir.path, "s");
    await exitScenario(dir.path, "a", "suite-a", await freePort());
    const document = await runSuite([dir.path], {
      outputDir: join(dir.path, "out"),
      jobs: 1,
      reporters: ["json"],
    });
    expect(document).toMatchObject({ schema_version: 1, interrupted: false, shard: null });
    expect(document.entries.map((entry) => [entry.name, entry.result])).toEqual([["suite-a", "PASSED"]]);
    const saved = JSON.parse(await readFile(join(dir.path, "out", document.suite_id, "suite.json"), "utf8"));
    expect(saved).toEqual(document);
    const error = await runSuite([scenarios]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as SuiteError).code).toBe("SUITE_PATH_NOT_FOUND");
  });

  it("runTrials runs a scenario N times like `run --trials`, prints nothing, and judges the series by the minimum pass rate", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const file = await exitScenario(dir.path, "fails", "library-trials", await freePort(), 1);
    const strict = await runTrials(file, { trials: 2, outputDir: join(dir.path, "strict") });
    const lenient = await runTrials(await loadScenario(file), {
      trials: 2,
      minPassRate: 0,
      outputDir: join(dir.path, "lenient"),
    });
    expect(write).not.toHaveBeenCalled();
    expect(strict.exitCode).toBe(1);
    expect(lenient.exitCode).toBe(0);
    for (const done of [strict, lenient]) {
      expect(done.document).toMatchObject({
        trials: 2,
        passed: 0,
        class: "stable_fail",
        outcomes: [{ result: "FAILED", reason_code: "WORKLOAD_EXIT_CODE_MISMATCH", count: 2 }],
      });
      expect(JSON.parse(await readFile(join(done.folder, "trials.json"), "utf8")).class).toBe("stable_fail");
    }
  });

  it("runExperiment takes trials: N runs into one trials folder, judged by the minimum pass rate", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const file = await exitScenario(dir.path, "fails", "experiment-trials", await freePort(), 1);
    const strict = await runExperiment(file, { trials: 3, jobs: 1, outputDir: join(dir.path, "strict") });
    const lenient = await runExperiment(file, {
      trials: 2,
      minPassRate: 0,
      outputDir: join(dir.path, "lenient"),
    });
    expect(write).not.toHaveBeenCalled();
    expect(strict).toMatchObject({ result: "FAILED", reasonCode: "stable_fail", exitCode: 1, report: null });
    expect(lenient).toMatchObject({ result: "PASSED", reasonCode: "stable_fail", exitCode: 0 });
    if (!("trials" in strict)) throw new Error("expected a series of trials");
    expect(strict.trials).toMatchObject({ trials: 3, passed: 0, class: "stable_fail", min_pass_rate: 1 });
    const entries = (await readdir(strict.runFolder)).sort();
    expect(entries).toHaveLength(4);
    expect(entries.at(-1)).toBe("trials.json");
    await expect(runExperiment(file, { trials: 0, outputDir: join(dir.path, "none") })).rejects.toMatchObject(
      { code: "TRIALS_BAD_OPTION" },
    );
    await expect(readdir(join(dir.path, "none"))).rejects.toThrow();
  });
});
