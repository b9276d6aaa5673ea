import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReportV4 } from "../../src/report/types.js";
import { renderRunFolder, renderRunReport } from "../../src/reporters/html/run-page.js";
import { renderRunFormat, writeRunReporters } from "../../src/reporters/run-files.js";
import { readSavedReport } from "../../src/reporters/saved-run.js";
import { testFolder } from "../helpers/cli.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const FIXTURE_V4 = join(FIXTURES, "runs", "v4-three-dependencies");
const dir = testFolder("each");

/** The fixture's typed report, read strictly. */
async function fixtureReport(): Promise<ReportV4> {
  await cp(FIXTURE_V4, dir.path, { recursive: true });
  const { report } = await readSavedReport(dir.path);
  if (report.schema_version !== 4) throw new Error("a schema-4 report was expected");
  return report;
}

describe("the run reporters take the typed report", () => {
  it("write report.html, junit.xml and ctrf.json from the report they are handed, without reading report.json", async () => {
    const report = await fixtureReport();
    const path = join(dir.path, "report.json");
    const expected = {
      html: await renderRunFolder(dir.path),
      junit: await renderRunFormat(dir.path, "junit", { report, path }),
    };
    // What is on disk no longer matters: the run hands over the report it built.
    await writeFile(path, '{"schema_version": 99}');
    const written = await writeRunReporters(dir.path, ["html", "junit", "ctrf", "json"], { report, path });
    expect(written).toEqual(["report.html", "junit.xml", "ctrf.json"].map((name) => join(dir.path, name)));
    expect(await readFile(join(dir.path, "report.html"), "utf8")).toBe(expected.html);
    expect(await readFile(join(dir.path, "junit.xml"), "utf8")).toBe(
      expected.junit.replace('report.json"', 'report.html"'),
    );
    const ctrf = JSON.parse(await readFile(join(dir.path, "ctrf.json"), "utf8"));
    expect(ctrf.results.tests[0]).toMatchObject({ name: report.scenario_name, rawStatus: report.result });
    expect(await readFile(path, "utf8")).toBe('{"schema_version": 99}');
  });

  it("draws a report 4 without report.json in the folder", async () => {
    const report = await fixtureReport();
    const page = await renderRunFolder(dir.path);
    await rm(join(dir.path, "report.json"));
    expect(await renderRunReport(dir.path, report)).toBe(page);
  });

  it("shows every parameter of a fault, booleans included", async () => {
    const report = await fixtureReport();
    const [first, ...rest] = report.faults;
    if (first === undefined) throw new Error("the fixture has faults");
    const page = await renderRunReport(dir.path, {
      ...report,
      faults: [{ ...first, parameters: { status_code: 529, should_retry: false } }, ...rest],
    });
    expect(page).toContain("status_code=529, should_retry=false");
  });

  it("keeps a probability seed above 2^53 exact when report.json is read", async () => {
    await writeFile(
      join(dir.path, "report.json"),
      await readFile(join(FIXTURES, "reports", "valid", "v3-recovered-max-seed.json")),
    );
    const { report } = await readSavedReport(dir.path);
    if (report.schema_version !== 3 || report.fault.trigger?.kind !== "seeded_probability")
      throw new Error("a schema-3 probability report was expected");
    expect(report.fault.trigger.seed).toBe(18446744073709551615n);
    expect(await renderRunFolder(dir.path)).toContain("seed 18446744073709551615,");
  });
});
