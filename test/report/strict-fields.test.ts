import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { ReportError } from "../../src/report/errors.js";
import { validateReport } from "../../src/report/reader.js";
import { renderSummary } from "../../src/report/summary.js";
import { fixtureDocument, fixtureNames, fixtureObject, VALID } from "./fixtures.js";

function refusedAt(report: Record<string, unknown>): string | null {
  try {
    validateReport(parse(JSON.stringify(report)));
  } catch (error) {
    if (error instanceof ReportError) return error.keyPath;
    throw error;
  }
  return "accepted";
}

/** A copy of a fixture with one key (dotted path) set to `value`. */
function withValue(name: string, path: string, value: unknown): Record<string, unknown> {
  const report = fixtureObject(VALID, name);
  const keys = path.split(".");
  let target = report;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1) as string] = value;
  return report;
}

describe("inspect accepts only the texts a run can write in timestamp and enum-like fields", () => {
  const versions = ["v1-passed-baseline", "v2-passed-baseline", "v3-passed-baseline"];

  it.each(versions)("%s: every valid fixture is still accepted", (name) => {
    expect(refusedAt(fixtureObject(VALID, name))).toBe("accepted");
  });

  it.each(
    versions.flatMap((name) => [
      [name, "timing.started_at", "yesterday"],
      [name, "timing.completed_at", "2026-13-01T00:00:00.000Z"],
      [name, "timing.started_at", "2026-11-29T18:38:21.123+00:00"],
      [name, "reason_code", "\u001b[2J\rResult: PASSED"],
      [name, "reason_code", "SOMETHING_ELSE"],
      [name, "fault.type", "rm -rf"],
      [name, "artifacts.events", "../../etc/passwd"],
      [name, "artifacts.dependency_stdout", "dependency.stderr.log"],
    ]),
  )("%s: refuses %s = %j", (name, path, value) => {
    expect(refusedAt(withValue(name, path, value))).toBe(path);
  });

  it("every valid fixture renders a summary free of control characters", () => {
    for (const name of fixtureNames(VALID)) {
      const report = validateReport(fixtureDocument(VALID, name));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
      expect(renderSummary(report, "/r/report.json")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    }
  });

  it("a report path with control characters is printed escaped", () => {
    const report = validateReport(parse(JSON.stringify(fixtureObject(VALID, "v2-passed-baseline"))));
    const text = renderSummary(report, "/runs/x\r\nResult: PASSED/report.json");
    expect(text).toContain("/runs/x\\x0d\\x0aResult: PASSED/report.json\n");
    expect(text.split("\n").filter((line) => line.startsWith("Result:"))).toEqual(["Result: PASSED"]);
  });
});
