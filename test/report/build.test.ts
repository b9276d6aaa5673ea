import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Schema1Analysis, TriggerEvidence } from "../../src/analysis/types.js";
import { buildReport } from "../../src/report/build.js";
import { readReport } from "../../src/report/reader.js";
import { writeReport } from "../../src/report/writer.js";
import type { LegacyFault, LegacyScenario } from "../../src/scenario/legacy/types.js";
import type { OccurrenceTrigger } from "../../src/scenario/types.js";
import { AgentChaosError } from "../../src/support/errors.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "agentchaos-report-build-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function scenario(fault: LegacyFault | null, workloadName: string | null = "demo-agent"): LegacyScenario {
  return {
    schemaVersion: 1,
    name: "api-503-recovery",
    dependency: { type: "http", baseUrl: "http://127.0.0.1:19103", start: null },
    workload: {
      name: workloadName,
      command: ["node", "demo-agent.js"],
      cwd: "/srv/agent",
      env: {},
      proxyUrlEnv: "CUSTOMER_API_URL",
    },
    fault,
    success: { exitCode: 0 },
    timeoutSeconds: 10,
    sourcePath: "/srv/agent/scenarios/api_503_recovery.yaml",
  };
}

function httpError(trigger: OccurrenceTrigger): LegacyFault {
  return { type: "http_error", statusCode: 503, target: { method: "GET", path: "/customer/*" }, trigger };
}

function analysis(
  trigger: TriggerEvidence | null,
  overrides: Partial<Schema1Analysis> & { faultsInjected?: number } = {},
): Schema1Analysis {
  const faultsInjected = overrides.faultsInjected ?? 0;
  return {
    result: "PASSED",
    reasonCode: "BASELINE_SUCCEEDED",
    metrics: {
      faultsInjected,
      operationsObserved: 2 + 2 * faultsInjected,
      successfulOperations: 2 + faultsInjected,
      failedOperations: faultsInjected,
      retriesObserved: faultsInjected,
      durationMs: 1434,
      workloadExitCode: 0,
      workloadTimedOut: false,
      workloadInterrupted: false,
    },
    recovery: { required: 0, successful: 0, evidence: [] },
    trigger,
    diagnostics: [],
    timing: { startedAt: "2026-11-29T18:38:21.123Z", completedAt: "2026-11-29T18:38:22.557Z" },
    ...overrides,
  };
}

const ROWS = [
  {
    failed_operation_id: "3f1d7a52-0c4e-4b8a-9d61-5e2f8c7b1a90",
    retry_operation_id: "9a4c2e71-6b3f-4d05-8e19-7c1b5a3d2f68",
    recovery_latency_ms: 53,
  },
  {
    failed_operation_id: "c8e5b1f4-2a7d-4e93-b046-1d9f3a6c8e25",
    retry_operation_id: "5d2b8f13-9e4a-4c67-a1f0-3b7e6d9c4a12",
    recovery_latency_ms: 104,
  },
];

describe("buildReport", () => {
  it("writes a baseline as schema 2 with empty schedules and a complete schedule", () => {
    const report = buildReport({
      scenario: scenario(null),
      analysis: analysis(null),
      runId: "20261129T183502Z-9e41f0a2",
      managedDependency: false,
    });
    expect(report.schema_version).toBe(2);
    expect(report.fault).toEqual({
      configured: false,
      type: null,
      injected: false,
      scheduled_occurrences: [],
      completed_occurrences: [],
      schedule_completed: true,
    });
    expect(report.artifacts.dependency_stdout).toBeNull();
    expect(report.artifacts.dependency_stderr).toBeNull();
    expect(report.workload).toEqual({
      name: "demo-agent",
      expected_exit_code: 0,
      exit_code: 0,
      timed_out: false,
      interrupted: false,
    });
  });

  it("writes an occurrence schedule as schema 2, keys in the order of docs/reports.md", () => {
    const report = buildReport({
      scenario: scenario(httpError({ kind: "occurrence_schedule", occurrences: [2, 4] })),
      analysis: analysis(
        {
          kind: "occurrence_schedule",
          scheduledOccurrences: [2, 4],
          completedOccurrences: [2],
          completed: false,
        },
        { result: "FAILED", reasonCode: "FAULT_SCHEDULE_INCOMPLETE", faultsInjected: 1, diagnostics: ["x"] },
      ),
      runId: "20261129T184007Z-77c03b5e",
      managedDependency: true,
    });
    expect(Object.keys(report)).toEqual([
      "schema_version",
      "run_id",
      "scenario_name",
      "result",
      "reason_code",
      "duration_ms",
      "faults_injected",
      "operations_observed",
      "successful_operations",
      "failed_operations",
      "retries_observed",
      "workload_exit_code",
      "workload",
      "fault",
      "recovery",
      "timing",
      "artifacts",
      "diagnostics",
    ]);
    expect(report.fault).toEqual({
      configured: true,
      type: "http_error",
      injected: true,
      scheduled_occurrences: [2, 4],
      completed_occurrences: [2],
      schedule_completed: false,
    });
    expect(report.artifacts).toEqual({
      scenario: "scenario.yaml",
      events: "events.jsonl",
      stdout: "stdout.log",
      stderr: "stderr.log",
      dependency_stdout: "dependency.stdout.log",
      dependency_stderr: "dependency.stderr.log",
      report: "report.json",
    });
    expect(report.timing).toEqual({
      started_at: "2026-11-29T18:38:21.123Z",
      completed_at: "2026-11-29T18:38:22.557Z",
    });
  });

  it("writes a seeded probability window as schema 3 that the strict reader accepts", async () => {
    const seed = 18446744073709551615n;
    const report = buildReport({
      scenario: scenario(
        httpError({
          kind: "seeded_probability",
          probability: 0.5,
          probabilityMillionths: 500000,
          seed,
          window: { startOccurrence: 1, endOccurrence: 4 },
        }),
        null,
      ),
      analysis: analysis(
        {
          kind: "seeded_probability",
          probability: 0.5,
          seed,
          window: { startOccurrence: 1, endOccurrence: 4 },
          evaluatedOccurrences: 4,
          selectedOccurrences: [1, 3],
          completed: true,
          consistent: true,
        },
        {
          result: "RECOVERED",
          reasonCode: "RECOVERY_OBSERVED",
          faultsInjected: 2,
          recovery: { required: 2, successful: 2, evidence: ROWS },
        },
      ),
      runId: "20261130T101204Z-4c6a8e02",
      managedDependency: false,
    });
    expect(report.schema_version).toBe(3);
    expect(report.workload.name).toBe("node");
    expect(report.fault).toEqual({
      configured: true,
      type: "http_error",
      injected: true,
      trigger: {
        kind: "seeded_probability",
        probability: 0.5,
        seed,
        window: { start_occurrence: 1, end_occurrence: 4 },
        evaluated_occurrences: 4,
        selected_occurrences: [1, 3],
        completed: true,
      },
    });
    const { report: read } = await readReport(await writeReport(dir, report));
    expect(read).toEqual(report);
  });

  it("uses a fixed epoch timestamp when the analysis saw no event", () => {
    const report = buildReport({
      scenario: scenario(null),
      analysis: analysis(null, { timing: null }),
      runId: "20261129T183502Z-9e41f0a2",
      managedDependency: false,
    });
    expect(report.timing).toEqual({
      started_at: "1970-01-01T00:00:00.000Z",
      completed_at: "1970-01-01T00:00:00.000Z",
    });
  });

  it("refuses trigger evidence of another kind than the scenario's trigger", () => {
    const build = () =>
      buildReport({
        scenario: scenario(httpError({ kind: "occurrence_schedule", occurrences: [2] })),
        analysis: analysis(null),
        runId: "20261129T183502Z-9e41f0a2",
        managedDependency: false,
      });
    expect(build).toThrow(AgentChaosError);
    expect(build).toThrow(expect.objectContaining({ code: "REPORT_EVIDENCE_MISMATCH" }));
  });
});
