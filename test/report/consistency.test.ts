import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ReportError } from "../../src/report/errors.js";
import { parseReportShape } from "../../src/report/parse-shape.js";
import { readReport } from "../../src/report/reader.js";
import { consistencyViolations } from "../../src/report/rules/consistency.js";
import type { RuleId } from "../../src/report/rules/violation.js";
import type { Report } from "../../src/report/types.js";
import { fixtureDocument, fixtureNames, INVALID, VALID } from "./fixtures.js";

/** Fixtures whose rule cannot be broken alone: the extra rules they necessarily break too. */
const ALSO_BROKEN: Partial<Record<string, RuleId[]>> = {
  // A baseline injects nothing, so any recovery row also outnumbers the injections.
  "baseline-has-recovery-rows": ["required-exceeds-injections"],
  // Report 4: a baseline has no fault, so a row necessarily names an unknown one.
  "baseline-has-recovery-rows--v4": ["evidence-fault-unknown"],
};

function shapeOf(folder: string, name: string): Report {
  return parseReportShape(fixtureDocument(folder, name));
}

describe("the consistency rules of strict reading", () => {
  it.each(fixtureNames(VALID))("find nothing to object to in the valid fixture %s", (name) => {
    const report = shapeOf(VALID, name);
    if (report.schema_version !== 1) expect(consistencyViolations(report)).toEqual([]);
  });

  it.each(fixtureNames(INVALID))("find exactly the rule an invalid fixture is named after: %s", (name) => {
    const rule = name.replace(/--v\d$/, "") as RuleId;
    const report = shapeOf(INVALID, name);
    expect(report.schema_version).not.toBe(1);
    if (report.schema_version === 1) return;
    const rules = consistencyViolations(report).map((violation) => violation.rule);
    expect(rules).toEqual([rule, ...(ALSO_BROKEN[name] ?? [])]);
  });

  it.each(fixtureNames(INVALID))(
    "make the reader reject %s as an invalid schema at the rule's key path",
    async (name) => {
      const report = shapeOf(INVALID, name);
      if (report.schema_version === 1) throw new Error("invalid fixtures are schema 2, 3 or 4");
      const [first] = consistencyViolations(report);
      const error = await readReport(join(INVALID, `${name}.json`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ReportError);
      expect(error).toMatchObject({ code: "REPORT_SCHEMA_INVALID", keyPath: first?.keyPath });
      expect((error as ReportError).message.startsWith("Report schema is invalid.")).toBe(true);
    },
  );

  it("cover every rule with at least one invalid fixture", () => {
    const covered = new Set(fixtureNames(INVALID).map((name) => name.replace(/--v\d$/, "")));
    const rules: RuleId[] = [
      "schedule-not-strictly-increasing",
      "completed-not-prefix",
      "injected-contradicts-schedule",
      "completed-flag-contradicts",
      "configured-fault-incomplete",
      "baseline-carries-fault",
      "probability-invalid",
      "seed-out-of-range",
      "window-invalid",
      "evaluated-out-of-range",
      "selected-outside-evaluated",
      "selection-contradicts-selector",
      "faults-injected-mismatch",
      "required-mismatch",
      "successful-mismatch",
      "duplicate-failed-id",
      "duplicate-retry-id",
      "retry-latency-half-null",
      "baseline-has-recovery-rows",
      "negative-count",
      "terminal-operations-exceed-observed",
      "injections-exceed-observed",
      "retries-exceed-observed",
      "required-exceeds-failed",
      "required-exceeds-injections",
      "successful-exceeds-retries",
      "successful-exceeds-successful-operations",
      "exit-code-mismatch",
      "interrupted-and-timed-out",
      "run-error-not-failed",
      "outcome-contradicts-evidence",
      "duplicate-dependency-name",
      "dependency-protocol-invalid",
      "dependency-operations-mismatch",
      "artifacts-dependencies-mismatch",
      "duplicate-fault-id",
      "fault-dependency-unknown",
      "fault-selections-mismatch",
      "evidence-fault-unknown",
      "fault-recovery-mismatch",
      "check-order-invalid",
      "check-passed-contradicts-findings",
      "check-not-evaluated-but-workload-ran",
    ];
    expect([...covered].sort()).toEqual([...rules].sort());
  });

  it("accept a schema-2 INTERNAL_ERROR that recorded more injections than its complete schedule", () => {
    const report = shapeOf(VALID, "v2-failed-internal-error-over-injection");
    expect(report.faults_injected).toBe(2);
    expect(report.schema_version === 2 && report.fault.completed_occurrences).toEqual([2]);
  });

  it("accept schema-3 selections that disagree with the count when the run failed with INTERNAL_ERROR", () => {
    const report = shapeOf(VALID, "v3-failed-internal-error-out-of-window");
    expect(report.faults_injected).toBe(3);
    expect(report.schema_version === 3 && report.fault.trigger?.kind).toBe("seeded_probability");
  });
});
