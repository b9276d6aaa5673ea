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
  "v4-passed-baseline": `
Experiment complete.

Result: PASSED
Reason: BASELINE_SUCCEEDED

Workload exit:          exit code 0
Dependency api:         http, 2 operations, 0 failed
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        0/0
Failed operations:      0
Retries:                0
Successful recoveries:  0/0
Duration:               0.40s

Report:
`,
  "v4-recovered-chain": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Workload exit:          exit code 0
Dependency llm:         http, 2 operations, 0 failed
Dependency crm:         http, 3 operations, 2 failed
Fault crm-503:          http_error on crm, injected 2/2
Fault llm-slow:         http_latency on llm, injected 1/1
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        3/3
Failed operations:      2
Retries:                2
Successful recoveries:  2/2
Duration:               0.90s

Report:
`,
  "v4-failed-retry-after": `
Experiment complete.

Result: FAILED
Reason: RETRY_AFTER_NOT_HONOURED

Workload exit:          exit code 0
Dependency llm:         http, 2 operations, 1 failed
Fault llm-429:          http_rate_limit on llm, injected 1/1
Check retry_after:      1 finding
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        1/1
Failed operations:      1
Retries:                1
Successful recoveries:  1/1
Duration:               0.23s

Diagnostics:
  operation 82f3e9c6-95dc-4b8d-ab11-818d5701919e was retried 52 ms after a response that asked for 1000 ms

Report:
`,
  "v4-failed-not-triggered": `
Experiment complete.

Result: FAILED
Reason: FAULT_NOT_TRIGGERED

Workload exit:          exit code 0
Dependency llm:         http, 3 operations, 0 failed
Fault llm-503:          http_error on llm, injected 0/1
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        0/1
Failed operations:      0
Retries:                0
Successful recoveries:  0/0
Duration:               0.21s

Diagnostics:
  fault llm-503: the configured trigger produced no fault injection; observed on llm: POST /v1/chat/completions (2), GET /v1/models (1)

Report:
`,
  "v4-passed-failure-handled": `
Experiment complete.

Result: PASSED
Reason: FAILURE_HANDLED

Workload exit:         exit code 0
Dependency llm:        http, 1 operation, 0 failed
Dependency weather:    http, 1 operation, 1 failed
Fault weather-down:    http_error on weather, injected 1/1, expect handle
Check retry_after:     passed
Check retry_storm:     passed (report only)
Faults injected:       1/1
Failed operations:     1
Retries:               0
Successful recoveries: 0/0
Duration:              0.15s

Report:
`,
  "v4-recovered-probability-mcp": `
Experiment complete.

Result: RECOVERED
Reason: RECOVERY_OBSERVED

Workload exit:          exit code 0
Dependency notes:       mcp, 3 operations, 1 failed
Fault notes-error:      mcp_error on notes, injected 1, window 1/1
Check retry_after:      passed
Check retry_storm:      1 finding (report only)
Check duplicate_writes: passed (report only)
Faults injected:        1
Failed operations:      1
Retries:                1
Successful recoveries:  1/1
Duration:               0.13s

Report:
`,
  "v4-failed-run-error": `
Experiment complete.

Result: FAILED
Reason: DEPENDENCY_START_FAILED

Workload exit:          not started
Dependency llm:         http, 0 operations, 0 failed
Dependency crm:         http, 0 operations, 0 failed
Fault crm-503:          http_error on crm, injected 0/1
Check retry_after:      not evaluated (the workload never ran)
Check retry_storm:      not evaluated (the workload never ran)
Check duplicate_writes: not evaluated (the workload never ran)
Faults injected:        0/1
Failed operations:      0
Retries:                0
Successful recoveries:  0/0
Duration:               2.04s

Diagnostics:
  dependency llm exited with code 1 before becoming ready

Report:
`,
  "v4-failed-fault-not-applied": `
Experiment complete.

Result: FAILED
Reason: FAULT_NOT_APPLIED

Workload exit:          exit code 0
Dependency crm:         http, 2 operations, 1 failed
Fault crm-503:          http_error on crm, injected 1/1
Fault crm-lost:         http_response_lost on crm, injected 0/1, not applied 1
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        1/2
Failed operations:      1
Retries:                1
Successful recoveries:  1/1
Duration:               0.22s

Diagnostics:
  fault crm-lost was selected for operation f55ff16f-66f4-4360-a66b-95db6f8fec01 but not applied: another_fault_acted

Report:
`,
  "v4-failed-unexpected-retry": `
Experiment complete.

Result: FAILED
Reason: UNEXPECTED_RETRY

Workload exit:          exit code 0 (expected 3)
Dependency llm:         http, 2 operations, 1 failed
Fault bad-request:      http_llm_error on llm, injected 1/1, expect give_up
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        1/1
Failed operations:      1
Retries:                1
Successful recoveries:  0/0
Duration:               0.70s

Diagnostics:
  operation bb82030d-bc2b-4aba-a2a9-0bf2e207a84a failed under fault bad-request, which expects give_up, and was retried by operation 6ca202c8-8e54-4dff-a8c0-9bfafbfc60b2

Report:
`,
  "v4-failed-partial-response": `
Experiment complete.

Result: FAILED
Reason: PARTIAL_RESPONSE_ACCEPTED

Workload exit:          exit code 0
Dependency llm:         http, 1 operation, 1 failed
Fault llm-cut:          http_stream_truncate on llm, injected 1/1
Check retry_after:      passed
Check retry_storm:      passed (report only)
Check duplicate_writes: passed (report only)
Faults injected:        1/1
Failed operations:      1
Retries:                0
Successful recoveries:  0/1
Duration:               0.16s

Diagnostics:
  operation f64551fc-d6f0-4823-ab87-971cfb914464 got a silently truncated response from fault llm-cut, and no complete retry followed

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

  it("never prints operation ids, diagnostics or the seed of reports 1-3", async () => {
    for (const name of fixtureNames(VALID).filter((n) => !n.startsWith("v4-"))) {
      const { report, path } = await readReport(join(VALID, `${name}.json`));
      const text = renderSummary(report, path);
      expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(text).not.toContain("18446744073709551615");
      for (const diagnostic of report.diagnostics) expect(text).not.toContain(diagnostic);
    }
  });
});
