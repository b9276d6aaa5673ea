import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readReport } from "../../src/report/reader.js";
import type { ReportV3 } from "../../src/report/types.js";
import { writeReport } from "../../src/report/writer.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "agentchaos-report-writer-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MAX_SEED_REPORT: ReportV3 = {
  schema_version: 3,
  run_id: "20261130T102344Z-d2c4e6f8",
  scenario_name: "orders-503-max-seed",
  result: "RECOVERED",
  reason_code: "RECOVERY_OBSERVED",
  duration_ms: 907,
  faults_injected: 1,
  operations_observed: 4,
  successful_operations: 3,
  failed_operations: 1,
  retries_observed: 1,
  workload_exit_code: 0,
  workload: { name: "order-sync", expected_exit_code: 0, exit_code: 0, timed_out: false, interrupted: false },
  fault: {
    configured: true,
    type: "http_error",
    injected: true,
    trigger: {
      kind: "seeded_probability",
      probability: 0.5,
      seed: 18446744073709551615n,
      window: { start_occurrence: 2, end_occurrence: 4 },
      evaluated_occurrences: 3,
      selected_occurrences: [3],
      completed: true,
    },
  },
  recovery: {
    required: 1,
    successful: 1,
    evidence: [
      {
        failed_operation_id: "0b6f3c52-8d0e-4d8e-9a51-2f6c7e1d9b40",
        retry_operation_id: "7c2e9a14-5b3d-4f61-8e07-c9a8d2b4f613",
        recovery_latency_ms: 57,
      },
    ],
  },
  timing: { started_at: "2026-11-30T10:23:44.610Z", completed_at: "2026-11-30T10:23:45.517Z" },
  artifacts: {
    scenario: "scenario.yaml",
    events: "events.jsonl",
    stdout: "stdout.log",
    stderr: "stderr.log",
    dependency_stdout: null,
    dependency_stderr: null,
    report: "report.json",
  },
  diagnostics: [],
};

describe("writeReport", () => {
  it("writes a seed above 2^53 as exact unquoted digits that read back as the same bigint", async () => {
    const path = await writeReport(dir, MAX_SEED_REPORT);
    const text = await readFile(path, "utf8");
    expect(text).toContain('\n      "seed": 18446744073709551615,\n');
    const { report } = await readReport(path);
    expect(report).toEqual(MAX_SEED_REPORT);
  });

  it("writes two-space JSON with a final newline, keys in documented order", async () => {
    const text = await readFile(await writeReport(dir, MAX_SEED_REPORT), "utf8");
    expect(text.startsWith('{\n  "schema_version": 3,\n  "run_id": "20261130T102344Z-d2c4e6f8",\n')).toBe(
      true,
    );
    expect(text.endsWith('\n  "diagnostics": []\n}\n')).toBe(true);
    const keys = [...text.matchAll(/^ {2}"(\w+)":/gm)].map((match) => match[1]);
    expect(keys).toEqual(Object.keys(MAX_SEED_REPORT));
  });

  it("returns the absolute path of report.json, resolving a relative run folder", async () => {
    const path = await writeReport(relative(process.cwd(), dir), MAX_SEED_REPORT);
    expect(path).toBe(join(dir, "report.json"));
  });

  it("replaces an existing report.json and leaves no temporary file behind", async () => {
    await writeFile(join(dir, "report.json"), "old");
    await writeReport(dir, MAX_SEED_REPORT);
    expect(await readdir(dir)).toEqual(["report.json"]);
    expect(await readFile(join(dir, "report.json"), "utf8")).not.toBe("old");
  });
});
