/**
 * One process serving many runs (trials, explore, a suite) must give each run its own proxy,
 * recorder, dependency, workload, folder and fault state, one after the other (here) and side by
 * side (the steady example's trials through the built CLI, test/e2e/trials.test.ts), checked by
 * test/helpers/isolated-runs.ts on the bundled steady_agent.yaml.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTrials } from "../../src/library/trials.js";
import { testFolder } from "../helpers/cli.js";
import { expectIsolatedRuns } from "../helpers/isolated-runs.js";

const dir = testFolder("each");
const SCENARIO = join(import.meta.dirname, "..", "..", "examples", "trials", "steady_agent.yaml");

describe("runs served by one process", () => {
  it("carry nothing from one run to the next", async () => {
    const done = await runTrials(SCENARIO, { trials: 2, jobs: 1, outputDir: join(dir.path, "out") });
    expect(done.document).toMatchObject({ trials: 2, class: "stable_pass" });
    const runFolders = done.document.runs.map((run) => run.run_folder as string);
    await expectIsolatedRuns(done.folder, runFolders);
  }, 120_000);
});
