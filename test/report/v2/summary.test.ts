import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readReport } from "../../../src/report/reader.js";
import { renderSummary } from "../../../src/report/summary.js";
import { workloadExit } from "../../../src/report/summary-v4.js";
import type { ReportV4 } from "../../../src/report/types.js";
import { VALID } from "../fixtures.js";

async function v4(name: string): Promise<ReportV4> {
  const { report } = await readReport(join(VALID, `${name}.json`));
  if (report.schema_version !== 4) throw new Error("expected a schema-4 fixture");
  return report;
}

describe("the schema-4 summary", () => {
  it("prints diagnostics for a failed run only", async () => {
    const recovered = { ...(await v4("v4-recovered-chain")), diagnostics: ["should not show"] };
    expect(renderSummary(recovered, "/r/report.json")).not.toContain("Diagnostics");
    const failed = await v4("v4-failed-not-triggered");
    expect(renderSummary(failed, "/r/report.json")).toContain(
      "\nDiagnostics:\n  fault llm-503: the configured trigger produced no fault injection; observed on llm: POST /v1/chat/completions (2), GET /v1/models (1)\n\nReport:\n/r/report.json\n",
    );
  });

  it("shows control characters of a diagnostic as ?", async () => {
    const failed = { ...(await v4("v4-failed-not-triggered")), diagnostics: ["bad\u001b[31m\nline\u0085"] };
    expect(renderSummary(failed, "/r/report.json")).toContain("\n  bad?[31m?line?\n");
  });

  it("widens the value column for a long fault id and keeps every value aligned", async () => {
    const report = await v4("v4-recovered-chain");
    const longId = "a-fault-id-that-is-rather-long";
    const wide = {
      ...report,
      faults: report.faults.map((fault, i) => (i === 0 ? { ...fault, id: longId } : fault)),
    };
    const lines = renderSummary(wide, "/r/report.json")
      .split("\n")
      .filter(
        (line) =>
          /^[A-Z][A-Za-z ]*[^:]*: {1,}\S/.test(line) &&
          !line.startsWith("Result") &&
          !line.startsWith("Reason"),
      );
    const column = `Fault ${longId}: `.length;
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect(line.charAt(column - 1)).toBe(" ");
    for (const line of lines) expect(line.charAt(column)).not.toBe(" ");
  });

  it("marks not-applied selections and expectations other than recover on the fault line", async () => {
    expect(renderSummary(await v4("v4-failed-fault-not-applied"), "/r")).toContain(
      "Fault crm-lost:         http_response_lost on crm, injected 0/1, not applied 1\n",
    );
    expect(renderSummary(await v4("v4-failed-unexpected-retry"), "/r")).toContain(
      "Fault bad-request:      http_llm_error on llm, injected 1/1, expect give_up\n",
    );
  });

  it("names the signal that ended the workload and why it was sent", () => {
    const workload = { name: "agent", expected_exit_code: 0, timed_out: false, interrupted: false };
    expect(workloadExit({ ...workload, exit_code: 0 })).toBe("exit code 0");
    expect(workloadExit({ ...workload, exit_code: 1 })).toBe("exit code 1 (expected 0)");
    expect(workloadExit({ ...workload, exit_code: -15, timed_out: true })).toBe(
      "killed by SIGTERM (timeout)",
    );
    expect(workloadExit({ ...workload, exit_code: -9, timed_out: true })).toBe("killed by SIGKILL (timeout)");
    expect(workloadExit({ ...workload, exit_code: 143, timed_out: true })).toBe("exit code 143 (timeout)");
    expect(workloadExit({ ...workload, exit_code: -15, interrupted: true })).toBe(
      "killed by SIGTERM (interrupted)",
    );
    expect(workloadExit({ ...workload, exit_code: -11 })).toBe("killed by SIGSEGV (expected 0)");
    expect(workloadExit({ ...workload, exit_code: -200 })).toBe("killed by signal 200 (expected 0)");
    expect(workloadExit({ ...workload, exit_code: null })).toBe("not started");
  });

  it("prints the workload's end on the line after the reason", async () => {
    const report = await v4("v4-recovered-chain");
    const killed = { ...report, workload: { ...report.workload, exit_code: -15, timed_out: true } };
    expect(renderSummary(killed, "/r")).toContain(
      "Reason: RECOVERY_OBSERVED\n\nWorkload exit:          killed by SIGTERM (timeout)\nDependency llm:",
    );
  });
});
