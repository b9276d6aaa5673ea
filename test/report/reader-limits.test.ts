import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { ReportError } from "../../src/report/errors.js";
import { REPORT_LIMITS } from "../../src/report/limits.js";
import { validateReport } from "../../src/report/reader.js";
import { selectedOccurrences } from "../../src/triggers/probability-selector.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { fixtureObject, VALID } from "./fixtures.js";

const dir = testFolder("each");

/** The tolerated-latency probability report, evaluated `evaluated` times over a window of `size`. */
function probabilityReport(evaluated: number, size: number): Record<string, unknown> {
  const report = fixtureObject(VALID, "v3-passed-probability-tolerated");
  const selected = selectedOccurrences(
    10n,
    500_000,
    1,
    Math.min(evaluated, REPORT_LIMITS.maxVerifiedEvaluations),
  );
  const fault = report.fault as { trigger: Record<string, unknown> };
  fault.trigger.window = { start_occurrence: 1, end_occurrence: size };
  fault.trigger.evaluated_occurrences = evaluated;
  fault.trigger.selected_occurrences = evaluated > REPORT_LIMITS.maxVerifiedEvaluations ? [2, 4] : selected;
  fault.trigger.completed = evaluated === size;
  const injected = (fault.trigger.selected_occurrences as number[]).length;
  report.faults_injected = injected;
  report.operations_observed = evaluated;
  report.successful_operations = evaluated;
  return report;
}

/** Where the strict reader refuses a report, or "accepted". */
function keyPathOf(report: Record<string, unknown>): string | null {
  try {
    validateReport(parse(JSON.stringify(report)));
  } catch (error) {
    if (error instanceof ReportError) return error.keyPath;
    throw error;
  }
  return "accepted";
}

describe("inspect bounds its work by what a real run can produce", () => {
  it("refuses a tiny report that claims 2^53 window evaluations, without enumerating them", async () => {
    const huge = Number.MAX_SAFE_INTEGER;
    const path = join(dir.path, "report.json");
    await writeFile(path, JSON.stringify(probabilityReport(huge, huge)));
    const result = await runBuiltCli(["inspect", path], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "Cannot inspect report: Report schema is invalid. Offending key: fault.trigger.evaluated_occurrences\n",
    );
  });

  it("verifies a window evaluated exactly up to the limit, and refuses one more", () => {
    const limit = REPORT_LIMITS.maxVerifiedEvaluations;
    expect(keyPathOf(probabilityReport(limit, limit))).toBe("accepted");
    expect(keyPathOf(probabilityReport(limit + 1, limit + 1))).toBe("fault.trigger.evaluated_occurrences");
  });
});
