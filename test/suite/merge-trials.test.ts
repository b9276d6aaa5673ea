import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type SuiteDocument, type SuiteEntry, serializeSuite } from "../../src/report/suite-document.js";
import { SuiteError } from "../../src/report/suite-errors.js";
import { summarizeTrials, type TrialRun } from "../../src/report/trials.js";
import { mergeSuites } from "../../src/suite/merge.js";
import { testFolder } from "../helpers/cli.js";

const dir = testFolder("each");

function trialsEntry(path: string, results: TrialRun["result"][], minPassRate: number): SuiteEntry {
  const runs = results.map((result, index) => ({
    trial: index + 1,
    result,
    reason_code: result === "FAILED" ? "RECOVERY_NOT_OBSERVED" : "RECOVERY_OBSERVED",
    duration_ms: 100,
    run_folder: `t-${path}/run-${index + 1}`,
  }));
  const summary = summarizeTrials(runs);
  return {
    path,
    name: path,
    result: summary.passed === summary.trials ? "PASSED" : "FAILED",
    reason_code: summary.class,
    exit_code: summary.passed === summary.trials ? 0 : 1,
    duration_ms: 100 * runs.length,
    run_folder: `t-${path}`,
    trials: { ...summary, min_pass_rate: minPassRate },
  };
}

async function shard(name: string, entries: SuiteEntry[]): Promise<string> {
  const folder = join(dir.path, name);
  await mkdir(folder);
  const document: SuiteDocument = {
    schema_version: entries.some((entry) => entry.trials !== undefined) ? 2 : 1,
    suite_id: name,
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: "2026-01-01T00:00:10.000Z",
    interrupted: false,
    shard: null,
    entries,
  };
  await writeFile(join(folder, "suite.json"), serializeSuite(document));
  return folder;
}

describe("merging suites run with trials", () => {
  it("combines the trials of one scenario across shards: renumbered, run folders from the merged folder, summary and verdict again", async () => {
    await shard("one", [
      trialsEntry("a.yaml", ["RECOVERED", "RECOVERED"], 0.5),
      trialsEntry("b.yaml", ["PASSED"], 1),
    ]);
    await shard("two", [trialsEntry("a.yaml", ["FAILED", "FAILED", "FAILED"], 0.5)]);
    const { document } = await mergeSuites(["one", "two"], "merged", dir.path);
    expect(document.schema_version).toBe(2);
    const [a, b] = document.entries;
    expect(a).toMatchObject({
      path: "a.yaml",
      result: "FAILED",
      reason_code: "flaky",
      exit_code: 1,
      duration_ms: 500,
      run_folder: "../one/t-a.yaml",
    });
    expect(a?.trials).toMatchObject({
      trials: 5,
      passed: 2,
      pass_rate: 0.4,
      class: "flaky",
      min_pass_rate: 0.5,
    });
    expect(a?.trials?.runs.map((run) => [run.trial, run.run_folder])).toEqual([
      [1, "../one/t-a.yaml/run-1"],
      [2, "../one/t-a.yaml/run-2"],
      [3, "../two/t-a.yaml/run-1"],
      [4, "../two/t-a.yaml/run-2"],
      [5, "../two/t-a.yaml/run-3"],
    ]);
    expect(b?.trials?.runs[0]?.run_folder).toBe("../one/t-b.yaml/run-1");
    const saved = JSON.parse(await readFile(join(dir.path, "merged", "suite.json"), "utf8"));
    expect(saved.entries[0].trials.trials).toBe(5);
    const junit = await readFile(join(dir.path, "merged", "junit.xml"), "utf8");
    expect(junit).toContain('message="5 trials: 2 passed, 3 failed (RECOVERY_NOT_OBSERVED ×3) — flaky');
  });

  it("refuses trials judged against different minimum pass rates, and a scenario twice without trials", async () => {
    await shard("one", [trialsEntry("a.yaml", ["PASSED"], 0.5)]);
    await shard("two", [trialsEntry("a.yaml", ["PASSED"], 0.8)]);
    const mismatch = await mergeSuites(["one", "two"], "merged", dir.path).catch((error: unknown) => error);
    expect((mismatch as SuiteError).code).toBe("MERGE_TRIALS_MISMATCH");
    const single: SuiteEntry = {
      path: "c.yaml",
      name: "c",
      result: "PASSED",
      reason_code: "BASELINE_SUCCEEDED",
      exit_code: 0,
      duration_ms: 1,
      run_folder: "run",
    };
    await shard("three", [single]);
    await shard("four", [trialsEntry("c.yaml", ["PASSED"], 1)]);
    const duplicate = await mergeSuites(["three", "four"], "merged", dir.path).catch(
      (error: unknown) => error,
    );
    expect((duplicate as SuiteError).code).toBe("MERGE_DUPLICATE_SCENARIO");
  });

  it("refuses a suite.json whose version does not match its entries", async () => {
    const folder = await shard("one", [trialsEntry("a.yaml", ["PASSED"], 1)]);
    const text = (await readFile(join(folder, "suite.json"), "utf8")).replace(
      '"schema_version": 2',
      '"schema_version": 1',
    );
    await writeFile(join(folder, "suite.json"), text);
    const error = await mergeSuites(["one"], "merged", dir.path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as SuiteError).code).toBe("SUITE_INVALID");
  });
});
