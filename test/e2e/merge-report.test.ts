import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { SuiteDocument } from "../../src/report/suite-document.js";
import { testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { freePort } from "../helpers/scenario-files.js";
import { exitScenario, recoveringScenario } from "../suite/scenarios.js";

const dir = testFolder("each");

async function suiteIn(outputDir: string): Promise<string> {
  const [id] = await readdir(outputDir);
  return join(outputDir, id as string);
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, "utf8")) as T;
}

/** The parts of a suite that do not depend on ids, times or where run folders live. */
function comparable(document: SuiteDocument) {
  return document.entries.map(({ run_folder, duration_ms, ...rest }) => ({
    ...rest,
    ran: run_folder !== null,
  }));
}

function junitCases(xml: string) {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testcase",
  }).parse(xml);
  const suite = parsed.testsuites.testsuite;
  return {
    counts: [suite.tests, suite.failures, suite.errors],
    cases: (suite.testcase as Record<string, unknown>[]).map((testcase) => [
      testcase.name,
      testcase.classname,
      Object.keys(testcase).filter((key) => key === "failure" || key === "error"),
    ]),
  };
}

/** Every file under a folder with its size and modification time. */
async function snapshot(folder: string): Promise<string[]> {
  const lines: string[] = [];
  for (const name of (await readdir(folder, { recursive: true })).sort()) {
    const info = await stat(join(folder, name));
    lines.push(`${name} ${info.size} ${info.mtimeMs}`);
  }
  return lines;
}

describe("merge and report", () => {
  it("merging shards gives what an unsharded run gives, modulo ids and times; overlaps are refused", async () => {
    await recoveringScenario(dir.path, "a-recovers", "a recovers", await freePort());
    await exitScenario(dir.path, "b-fails", "b fails", await freePort(), 1);
    await exitScenario(dir.path, "c-passes", "c passes", await freePort());
    const run = (out: string, ...more: string[]) =>
      runInProcess(["suite", ".", "--output-dir", out, "--reporter", "junit,ctrf,html", ...more], dir.path);
    expect((await run("whole")).code).toBe(1);
    expect((await run("shard1", "--shard", "1/2")).code).toBe(1);
    expect((await run("shard2", "--shard", "2/2")).code).toBe(0);
    const [whole, shard1, shard2] = await Promise.all(
      ["whole", "shard1", "shard2"].map((name) => suiteIn(join(dir.path, name))),
    );
    const before = [await snapshot(shard1 as string), await snapshot(shard2 as string)];

    const merged = await runInProcess(
      ["merge", shard1 as string, shard2 as string, "--output-dir", "merged"],
      dir.path,
    );
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(0);
    expect([await snapshot(shard1 as string), await snapshot(shard2 as string)]).toEqual(before);
    const mergedDir = join(dir.path, "merged");
    expect((await readdir(mergedDir)).sort()).toEqual(["ctrf.json", "index.html", "junit.xml", "suite.json"]);
    const wholeDoc = await readJson<SuiteDocument>(join(whole as string, "suite.json"));
    const mergedDoc = await readJson<SuiteDocument>(join(mergedDir, "suite.json"));
    expect(comparable(mergedDoc)).toEqual(comparable(wholeDoc));
    expect(mergedDoc.shard).toBeNull();
    for (const entry of mergedDoc.entries) {
      expect((await stat(join(mergedDir, entry.run_folder as string, "report.json"))).isFile()).toBe(true);
    }
    expect(junitCases(await readFile(join(mergedDir, "junit.xml"), "utf8"))).toEqual(
      junitCases(await readFile(join(whole as string, "junit.xml"), "utf8")),
    );
    const ctrfTests = async (folder: string) =>
      (
        await readJson<{ results: { tests: Record<string, unknown>[] } }>(join(folder, "ctrf.json"))
      ).results.tests.map(({ duration, extra, message, ...rest }) => ({
        ...rest,
        message: String(message).split("\n")[0],
      }));
    expect(await ctrfTests(mergedDir)).toEqual(await ctrfTests(whole as string));
    const index = await readFile(join(mergedDir, "index.html"), "utf8");
    for (const entry of mergedDoc.entries) expect(index).toContain(`href="${entry.run_folder}/report.html"`);

    const twice = await runInProcess(
      ["merge", shard1 as string, whole as string, "--output-dir", "again"],
      dir.path,
    );
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^Cannot merge: scenario .+ is in both .+\n$/);
    const sameShard = await runInProcess(
      ["merge", shard1 as string, shard1 as string, "--output-dir", "again"],
      dir.path,
    );
    expect(sameShard.code).toBe(2);
    expect(sameShard.stderr).toMatch(/^Cannot merge: .+ are both shard 1\/2\n$/);
    const noDir = await runInProcess(["merge", shard1 as string], dir.path);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/^Error: 'merge' needs --output-dir DIR\n/);
    const notSuite = await runInProcess(["merge", dir.path, "--output-dir", "again"], dir.path);
    expect(notSuite.code).toBe(2);
    expect(notSuite.stderr).toMatch(/^Cannot merge: .+: suite.json not found\n$/);
  });

  it("report renders a saved run or suite in every format without modifying the folder", async () => {
    await recoveringScenario(dir.path, "a-recovers", "a recovers", await freePort());
    expect(
      (await runInProcess(["suite", ".", "--output-dir", "out", "--reporter", "json"], dir.path)).code,
    ).toBe(0);
    const suite = await suiteIn(join(dir.path, "out"));
    const document = await readJson<SuiteDocument>(join(suite, "suite.json"));
    const runFolder = join(suite, document.entries[0]?.run_folder as string);
    const before = await snapshot(suite);

    const html = await runInProcess(["report", runFolder, "--format", "html"], dir.path);
    expect(html.code).toBe(0);
    expect(html.stdout).toMatch(/^<!doctype html>[\s\S]*id="verdict" class="badge verdict RECOVERED"/);
    const junit = await runInProcess(["report", runFolder, "--format", "junit"], dir.path);
    expect(junitCases(junit.stdout).cases).toEqual([["a recovers", "a recovers", []]]);
    const ctrf = JSON.parse((await runInProcess(["report", runFolder, "--format", "ctrf"], dir.path)).stdout);
    expect(ctrf.results.tests[0]).toMatchObject({
      name: "a recovers",
      rawStatus: "RECOVERED",
      filePath: "scenario.yaml",
    });
    const json = await runInProcess(["report", join(runFolder, "report.json"), "--format", "json"], dir.path);
    expect(json.stdout).toBe(await readFile(join(runFolder, "report.json"), "utf8"));
    const suiteJson = await runInProcess(["report", suite, "--format", "json"], dir.path);
    expect(suiteJson.stdout).toBe(await readFile(join(suite, "suite.json"), "utf8"));
    const suiteHtml = await runInProcess(
      ["report", suite, "--format", "html", "--output", "elsewhere/index.html"],
      dir.path,
    );
    expect(suiteHtml.code).toBe(0);
    const written = await readFile(join(dir.path, "elsewhere", "index.html"), "utf8");
    expect(written).toContain(
      `href="../out/${document.suite_id}/${document.entries[0]?.run_folder}/report.json"`,
    );
    expect(await snapshot(suite)).toEqual(before);

    const missing = await runInProcess(["report", "nowhere", "--format", "html"], dir.path);
    expect(missing).toMatchObject({
      code: 2,
      stderr: "Cannot render report: nowhere: report.json not found\n",
    });
    const noFormat = await runInProcess(["report", suite], dir.path);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toMatch(/^Error: 'report' needs --format html, junit, ctrf or json\n/);
    const badFormat = await runInProcess(["report", suite, "--format", "pdf"], dir.path);
    expect(badFormat.stderr).toMatch(/^Error: unknown format 'pdf'/);
  });

  it("run --reporter writes the reporters' files into the run folder and lists them after the summary", async () => {
    const file = await recoveringScenario(dir.path, "a-recovers", "a recovers", await freePort());
    const run = await runInProcess(
      ["run", file, "--output-dir", "runs", "--reporter", "html,junit,ctrf,json"],
      dir.path,
    );
    expect(run.code).toBe(0);
    const [id] = await readdir(join(dir.path, "runs"));
    const runDir = join(dir.path, "runs", id as string);
    const tail = `\nReport:\n${join(runDir, "report.json")}\n\nAlso written:\n${join(runDir, "report.html")}\n${join(runDir, "junit.xml")}\n${join(runDir, "ctrf.json")}\n`;
    expect(run.stdout.endsWith(tail)).toBe(true);
    expect(junitCases(await readFile(join(runDir, "junit.xml"), "utf8")).cases).toEqual([
      ["a recovers", "a recovers", []],
    ]);
    const bad = await runInProcess(["run", file, "--reporter", "pdf"], dir.path);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: unknown reporter 'pdf' \(expected junit, ctrf, html or json\)\n/);
  });
});
