import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process.js";
import { tempDir } from "../helpers/temp.js";

describe("a run whose output folder cannot be created", () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir("agentchaos-run-failure-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  it("is one line naming what could not start and exit 3, for a run and for trials", async () => {
    const blocker = join(dir.path, "a-file");
    await writeFile(blocker, "");
    const scenario = "examples/scenarios/no_fault.yaml";
    const outputDir = ["--output-dir", join(blocker, "runs")];
    const single = await runInProcess(["run", scenario, ...outputDir]);
    expect(single.code).toBe(3);
    expect(single.stderr).toBe("Cannot start experiment: cannot create output folder (ENOTDIR)\n");
    const series = await runInProcess(["run", scenario, "--trials", "2", ...outputDir]);
    expect(series.code).toBe(3);
    expect(series.stderr).toBe("Cannot start trials: cannot create output folder (ENOTDIR)\n");
  });

  it("is the suite's and the explore's own error, with the setup exit code", async () => {
    const blocker = join(dir.path, "a-file");
    await writeFile(blocker, "");
    const scenario = "examples/scenarios/no_fault.yaml";
    const outputDir = ["--output-dir", join(blocker, "out")];
    const suite = await runInProcess(["suite", scenario, ...outputDir]);
    expect(suite.code).toBe(3);
    expect(suite.stderr).toBe("Cannot run suite: cannot create output folder (ENOTDIR)\n");
    const explore = await runInProcess(["explore", scenario, ...outputDir]);
    expect(explore.code).toBe(3);
    expect(explore.stderr).toBe(`Cannot explore: ${scenario}: cannot create output folder (ENOTDIR)\n`);
  });

  it("names a folder without a scenario file the same way for run, record and validate", async () => {
    for (const command of ["run", "record", "validate"]) {
      const result = await runInProcess([command, dir.path]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `Invalid scenario: ${dir.path}: is a folder with no scenario.yaml; name a scenario file, or run every scenario in it with: agentchaos suite <folder>\n`,
      );
    }
  });
});
