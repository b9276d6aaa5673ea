import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runTrials } from "../../src/library/trials.js";
import { groupAlive } from "../../src/support/process-group.js";
import { TRIALS_FILE_NAME } from "../../src/trials/document.js";
import { TrialsError } from "../../src/trials/options.js";
import { agentScenario } from "../explore/scenarios.js";
import { testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { freePort } from "../helpers/scenario-files.js";
import { lockScenario } from "../suite/scenarios.js";

const dir = testFolder("each");

async function workloadPids(runFolder: string): Promise<number[]> {
  const text = await readFile(join(runFolder, "events.jsonl"), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; payload: { pid?: number } })
    .filter((event) => event.type === "WORKLOAD_STARTED")
    .map((event) => event.payload.pid as number);
}

describe("the trial scheduler", () => {
  it("runs the trials of a {port} scenario at the same time under jobs, each in its own run folder, printing nothing", async () => {
    const meeting = join(dir.path, "meeting");
    await mkdir(meeting);
    const scenario = await agentScenario(dir.path, "meet", { program: ["meet.mjs", meeting, "3", "15000"] });
    const write = vi.spyOn(process.stdout, "write");
    const done = await runTrials(scenario, { trials: 3, jobs: 3, outputDir: join(dir.path, "out") });
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
    expect(done.exitCode).toBe(0);
    expect(done.document).toMatchObject({ trials: 3, passed: 3, class: "stable_pass", requested: 3 });
    const folders = done.document.runs.map((run) => run.run_folder);
    expect(new Set(folders).size).toBe(3);
    expect((await readdir(done.folder)).sort()).toEqual([...(folders as string[]), TRIALS_FILE_NAME].sort());
    const saved = JSON.parse(await readFile(join(done.folder, TRIALS_FILE_NAME), "utf8"));
    expect(saved).toEqual(JSON.parse(JSON.stringify(done.document)));
    expect(done.written).toEqual([join(done.folder, TRIALS_FILE_NAME)]);
  }, 60_000);

  it("runs the trials of a fixed-port scenario one at a time, however many jobs", async () => {
    const locks = join(dir.path, "locks");
    await mkdir(locks);
    const scenario = await lockScenario(dir.path, "lock", await freePort(), locks);
    const done = await runTrials(scenario, { trials: 3, jobs: 3, outputDir: join(dir.path, "out") });
    expect(done.document.runs.map((run) => run.result)).toEqual(["PASSED", "PASSED", "PASSED"]);
    expect(done.exitCode).toBe(0);
  }, 60_000);

  it("keeps the finished trials when interrupted, stops the running ones and exits 130", async () => {
    const marks = join(dir.path, "marks");
    await mkdir(marks);
    const scenario = await agentScenario(dir.path, "first", {
      program: ["first-run-only.mjs", marks],
      timeoutSeconds: 60,
    });
    const controller = new AbortController();
    const done = await runTrials(scenario, {
      trials: 3,
      jobs: 2,
      outputDir: join(dir.path, "out"),
      signal: controller.signal,
      // Interrupted once the first trial has ended and both others (the third took the first's
      // place) have their workload running.
      onTrial: () =>
        void eventually(
          async () => (await readdir(marks)).filter((name) => name.startsWith("waiting-")).length === 2,
          { what: "the other trials' workloads started" },
        ).then(() => controller.abort()),
    });
    expect(done.exitCode).toBe(130);
    expect(done.document).toMatchObject({ trials: 1, passed: 1, requested: 3, interrupted: true });
    const saved = JSON.parse(await readFile(join(done.folder, TRIALS_FILE_NAME), "utf8"));
    expect(saved).toMatchObject({ trials: 1, interrupted: true });
    const runFolders = (await readdir(done.folder)).filter((name) => name !== TRIALS_FILE_NAME);
    expect(runFolders.length).toBe(3);
    const pids: number[] = [];
    for (const runFolder of runFolders) pids.push(...(await workloadPids(join(done.folder, runFolder))));
    expect(pids.length).toBe(3);
    await eventually(() => pids.every((pid) => !groupAlive(pid)), { what: "every trial process ended" });
  }, 60_000);

  it("refuses trials out of range and a minimum pass rate outside 0 to 1 before running anything", async () => {
    const scenario = await agentScenario(dir.path, "any");
    for (const options of [
      { trials: 0 },
      { trials: 101 },
      { trials: 2.5 },
      { trials: 2, minPassRate: 1.5 },
    ]) {
      const error = await runTrials(scenario, { ...options, outputDir: join(dir.path, "out") }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TrialsError);
      expect((error as TrialsError).code).toBe("TRIALS_BAD_OPTION");
    }
    await expect(readdir(join(dir.path, "out"))).rejects.toThrow();
  });
});
