import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readReport } from "../../src/report/reader.js";
import { renderSummary } from "../../src/report/summary.js";
import { fixtureNames, VALID } from "./fixtures.js";

/** The summary of each valid fixture up to the `Report:` line; the path line follows. */
const SUMMARIES: Record<string, string> = {
  "v1-passed-baseline": `
Experiment complete.

Result: PASSED
Reason: BASELINE_SUCCEEDED

Faults injected:       0
Failed operations:     0
Retries:               0
Successful recovery:   no
Duration:              0.41s

Report:
`,
  "v1-recovered": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Faults injected:       1
Failed operations:     1
Retries:               1
Successful recovery:   yes
Duration:              1.10s

Report:
`,
  "v1-failed": `
Experiment complete.

Result: FAILED
Reason: RECOVERY_NOT_OBSERVED

Faults injected:       1
Failed operations:     1
Retries:               0
Successful recovery:   no
Duration:              0.99s

Report:
`,
  "v2-passed-baseline": `
Experiment complete.

Result: PASSED
Reason: BASELINE_SUCCEEDED

Faults injected:       0/0
Failed operations:     0
Retries:               0
Successful recoveries: 0/0
Duration:              0.44s

Report:
`,
  "v2-recovered-schedule": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Faults injected:       2/2
Failed operations:     2
Retries:               2
Successful recoveries: 2/2
Duration:              1.43s

Report:
`,
  "v2-failed-schedule-incomplete": `
Experiment complete.

Result: FAILED
Reason: FAULT_SCHEDULE_INCOMPLETE

Faults injected:       1/2
Failed operations:     1
Retries:               1
Successful recoveries: 1/1
Duration:              1.22s

Report:
`,
  "v2-failed-exit-code-mismatch": `
Experiment complete.

Result: FAILED
Reason: WORKLOAD_EXIT_CODE_MISMATCH

Faults injected:       2/2
Failed operations:     2
Retries:               2
Successful recoveries: 2/2
Duration:              2.01s

Report:
`,
  "v2-failed-run-error": `
Experiment complete.

Result: FAILED
Reason: WORKLOAD_SPAWN_FAILED

Faults injected:       0/1
Failed operations:     0
Retries:               0
Successful recoveries: 0/0
Duration:              0.04s

Report:
`,
  "v2-failed-internal-error-over-injection": `
Experiment complete.

Result: FAILED
Reason: INTERNAL_ERROR

Faults injected:       2/1
Failed operations:     2
Retries:               1
Successful recoveries: 1/2
Duration:              1.16s

Report:
`,
  "v3-recovered-probability": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Window evaluations:    5/5
Faults injected:       2
Failed operations:     2
Retries:               2
Successful recoveries: 2/2
Duration:              1.47s

Report:
`,
  "v3-failed-window-incomplete": `
Experiment complete.

Result: FAILED
Reason: TRIGGER_WINDOW_INCOMPLETE

Window evaluations:    3/5
Faults injected:       1
Failed operations:     1
Retries:               1
Successful recoveries: 1/1
Duration:              1.19s

Report:
`,
  "v3-passed-probability-tolerated": `
Experiment complete.

Result: PASSED
Reason: FAULT_TOLERATED

Window evaluations:    3/3
Faults injected:       1
Failed operations:     0
Retries:               0
Successful recoveries: 0/0
Duration:              1.32s

Report:
`,
  "v3-recovered-schedule": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Faults injected:       2/2
Failed operations:     2
Retries:               2
Successful recoveries: 2/2
Duration:              1.45s

Report:
`,
  "v3-passed-baseline": `
Experiment complete.

Result: PASSED
Reason: BASELINE_SUCCEEDED

Faults injected:       0/0
Failed operations:     0
Retries:               0
Successful recoveries: 0/0
Duration:              0.43s

Report:
`,
  "v3-recovered-max-seed": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Window evaluations:    3/3
Faults injected:       1
Failed operations:     1
Retries:               1
Successful recoveries: 1/1
Duration:              0.91s

Report:
`,
  "v3-failed-internal-error-out-of-window": `
Experiment complete.

Result: FAILED
Reason: INTERNAL_ERROR

Window evaluations:    5/5
Faults injected:       3
Failed operations:     2
Retries:               2
Successful recoveries: 2/2
Duration:              1.50s

Report:
`,
};

describe("renderSummary", () => {
  it("has an expected summary for every valid fixture", () => {
    expect(Object.keys(SUMMARIES).sort()).toEqual(fixtureNames(VALID));
  });

  it.each(Object.keys(SUMMARIES))(
    "renders %s byte for byte, ending with the absolute report path",
    async (name) => {
      const { report, path } = await readReport(join(VALID, `${name}.json`));
      expect(renderSummary(report, path)).toBe(`${SUMMARIES[name]}${join(VALID, `${name}.json`)}\n`);
    },
  );

  it("prints the report path absolute and resolved", async () => {
    const { report } = await readReport(join(VALID, "v2-recovered-schedule.json"));
    const text = renderSummary(report, "/runs/x/../y/./report.json");
    expect(text.endsWith("\nReport:\n/runs/y/report.json\n")).toBe(true);
  });

  it("never prints operation ids, diagnostics or the seed", async () => {
    for (const name of fixtureNames(VALID)) {
      const { report, path } = await readReport(join(VALID, `${name}.json`));
      const text = renderSummary(report, path);
      expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(text).not.toContain("18446744073709551615");
      for (const diagnostic of report.diagnostics) expect(text).not.toContain(diagnostic);
    }
  });
});
