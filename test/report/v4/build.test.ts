import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "lossless-json";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyzeRun } from "../../../src/analysis/run-analysis.js";
import { readReport, validateReport } from "../../../src/report/reader.js";
import { buildReportV4 } from "../../../src/report/v4/build.js";
import { faultParameters } from "../../../src/report/v4/fault-parameters.js";
import { serializeReport, writeReport } from "../../../src/report/writer.js";
import type { Fault } from "../../../src/scenario/types.js";
import { CATALOGUE } from "../../analysis/schema-2/catalogue.js";
import {
  httpDependency,
  httpError,
  mcpStdioDependency,
  probability,
  scenarioV2,
  schedule,
} from "../../analysis/schema-2/scenarios.js";
import { runBuilder } from "../../helpers/events.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "agentchaos-report-v4-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entryNamed(name: string) {
  const entry = CATALOGUE.find((e) => e.name === name);
  if (entry === undefined) throw new Error(`no catalogue run named ${name}`);
  return entry;
}

function reportOf(entry: (typeof CATALOGUE)[number]) {
  // As the orchestrator does: analyse, record RUN_COMPLETED, analyse again.
  const run = entry.run();
  const first = analyzeRun(entry.scenario, run.events());
  run.runCompleted(first.result, first.reasonCode);
  const analysis = analyzeRun(entry.scenario, run.events());
  return buildReportV4({
    scenario: entry.scenario,
    analysis,
    runId: run.runId,
    managedDependencies: entry.managed ?? [],
  });
}

describe("buildReportV4", () => {
  it.each(CATALOGUE.map((entry) => [entry.name, entry] as const))(
    "builds a report the strict reader accepts unchanged: %s",
    (_, entry) => {
      const report = reportOf(entry);
      expect(report.reason_code).toBe(entry.reasonCode);
      expect(validateReport(parse(serializeReport(report)))).toEqual(report);
    },
  );

  it("writes the keys of docs/reports.md in file order", () => {
    const report = reportOf(entryNamed("chain resolves 503, 503, 200"));
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
      "dependencies",
      "faults",
      "recovery",
      "checks",
      "timing",
      "artifacts",
      "diagnostics",
    ]);
    expect(Object.keys(report.dependencies[0] ?? {})).toEqual([
      "name",
      "type",
      "protocol",
      "base_url",
      "managed",
      "operations_observed",
      "failed_operations",
    ]);
    expect(Object.keys(report.faults[0] ?? {})).toEqual([
      "id",
      "dependency",
      "type",
      "expect",
      "target",
      "parameters",
      "injected",
      "not_applied",
      "trigger",
      "recovery",
    ]);
    expect(report.recovery).toMatchObject({ mode: "chain", required: 2, successful: 2 });
    expect(Object.keys(report.recovery.evidence[0] ?? {})).toEqual([
      "fault_id",
      "failed_operation_id",
      "retry_operation_id",
      "recovery_latency_ms",
    ]);
    expect(report.checks.map((check) => Object.keys(check))).toEqual([
      ["name", "mode", "passed", "findings"],
      ["name", "mode", "passed", "findings"],
      ["name", "mode", "passed", "findings"],
    ]);
    expect(Object.keys(report.artifacts)).toEqual([
      "scenario",
      "events",
      "stdout",
      "stderr",
      "dependencies",
      "report",
    ]);
  });

  it("lists dependencies in scenario order with their protocol, URL, management and logs", () => {
    const scenario = scenarioV2({
      dependencies: [
        httpDependency("llm", { managed: true }),
        { ...httpDependency("crm"), baseUrl: "http://user:secret@127.0.0.1:8080/api?key=secret" },
        { ...httpDependency("mcphttp"), protocol: "mcp" },
        mcpStdioDependency("notes"),
        httpDependency("late", { managed: true }),
      ],
    });
    const events = runBuilder()
      .emit({ kind: "RUN_STARTED", scenario_name: "x" })
      .emit({ kind: "DEPENDENCY_STARTED", dependency: "llm", base_url: "http://127.0.0.1:40123/v1", pid: 1 })
      .runError("DEPENDENCY_START_FAILED", "dependency late did not become ready within 15s")
      .events();
    const report = buildReportV4({
      scenario,
      analysis: analyzeRun(scenario, events),
      runId: "r",
      managedDependencies: ["late", "llm"],
    });
    expect(report.dependencies.map((d) => [d.name, d.type, d.protocol, d.base_url, d.managed])).toEqual([
      ["llm", "http", "http", "http://127.0.0.1:40123/v1", true],
      ["crm", "http", "http", "http://127.0.0.1:8080/api", false],
      ["mcphttp", "http", "mcp", "http://127.0.0.1:8001", false],
      ["notes", "mcp_stdio", "mcp", null, false],
      ["late", "http", "http", null, true],
    ]);
    expect(report.artifacts.dependencies).toEqual({
      llm: { stdout: "dependencies/llm.stdout.log", stderr: "dependencies/llm.stderr.log" },
      late: { stdout: "dependencies/late.stdout.log", stderr: "dependencies/late.stderr.log" },
    });
    expect(serializeReport(report)).not.toContain("secret");
    expect(() => validateReport(parse(serializeReport(report)))).not.toThrow();
  });

  it("leaves an off check out of the report entirely", () => {
    const entry = entryNamed("Retry-After ignored");
    const scenario = {
      ...entry.scenario,
      checks: { ...entry.scenario.checks, retry_after: { mode: "off" as const, dependencies: null } },
    };
    const report = reportOf({ ...entry, scenario });
    expect(report.checks.map((check) => check.name)).toEqual(["retry_storm", "duplicate_writes"]);
    expect(serializeReport(report)).not.toContain('retry_after"');
    expect(report.reason_code).toBe("RECOVERY_OBSERVED");
  });

  it("writes the probability seed as exact digits and reads the file back", async () => {
    const scenario = scenarioV2({
      faults: [
        httpError("f1", {
          trigger: probability({ millionths: 250_000, seed: 18446744073709551615n, start: 1, end: 1 }),
        }),
      ],
    });
    const events = runBuilder().setup().observed("op-1", "fp").succeeded("op-1").workloadCompleted().events();
    const report = buildReportV4({
      scenario,
      analysis: analyzeRun(scenario, events),
      runId: "r",
      managedDependencies: [],
    });
    const path = await writeReport(dir, report);
    expect(await readFile(path, "utf8")).toContain('"seed": 18446744073709551615,');
    expect((await readReport(path)).report).toEqual(report);
  });
});

describe("faultParameters", () => {
  const base = {
    id: "f",
    dependency: "api",
    target: { kind: "http", method: null, path: "/" },
    trigger: schedule(1),
    expect: "recover",
  } as const;
  it.each<[Fault, Record<string, unknown>]>([
    [
      { ...base, type: "http_latency", latencyMs: 250, jitterMs: null, jitterSeed: null },
      { latency_ms: 250 },
    ],
    [
      { ...base, type: "http_latency", latencyMs: 250, jitterMs: 50, jitterSeed: 7 },
      { latency_ms: 250, jitter_ms: 50, jitter_seed: 7 },
    ],
    [{ ...base, type: "http_error", statusCode: 503 }, { status_code: 503 }],
    [{ ...base, type: "http_rate_limit", retryAfterSeconds: 2 }, { retry_after_seconds: 2 }],
    [{ ...base, type: "http_malformed_json" }, {}],
    [{ ...base, type: "http_disconnect" }, {}],
    [
      {
        ...base,
        type: "http_llm_error",
        provider: "anthropic",
        statusCode: 529,
        retryAfterSeconds: null,
        retryAfterMs: 1500,
        shouldRetry: true,
      },
      { provider: "anthropic", status_code: 529, retry_after_ms: 1500, should_retry: true },
    ],
    [{ ...base, type: "http_stream_truncate", afterEvents: 3, afterBytes: null }, { after_events: 3 }],
    [{ ...base, type: "http_stream_reset", afterEvents: null, afterBytes: 0 }, { after_bytes: 0 }],
    [
      { ...base, type: "http_stream_stall", afterEvents: 1, afterBytes: null, stallMs: 5000 },
      { after_events: 1, stall_ms: 5000 },
    ],
    [
      { ...base, type: "http_stream_error_event", afterEvents: 2, afterBytes: null, format: "openai" },
      { after_events: 2, format: "openai" },
    ],
    [{ ...base, type: "http_response_lost" }, {}],
    [{ ...base, type: "mcp_error", code: -32603 }, { code: -32603 }],
    [{ ...base, type: "mcp_tool_error" }, {}],
    [{ ...base, type: "mcp_latency", latencyMs: 100 }, { latency_ms: 100 }],
    [{ ...base, type: "mcp_no_response" }, {}],
    [{ ...base, type: "mcp_disconnect" }, {}],
  ])("holds every own key of %o", (fault, expected) => {
    expect(faultParameters(fault)).toEqual(expected);
    expect(Object.keys(faultParameters(fault))).toEqual(Object.keys(expected));
  });
});
