import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onlyRunDir, testFolder } from "../helpers/cli.js";
import { runCliHere } from "../helpers/in-process-cli.js";
import { runsAhead } from "../helpers/runs-ahead.js";

interface Example {
  /** Path under examples/, without `.yaml`. */
  readonly file: string;
  readonly result: string;
  readonly reason: string;
  readonly exit: number;
  /** Each check that is not off: [name, mode, passed, number of findings]. */
  readonly checks: readonly (readonly [string, string, boolean, number | "some"])[];
  /** What else the run must show: in the report, on the terminal, in the agent's output. */
  readonly more: (run: { report: Report; stdout: string; agent: string }) => void;
}

interface Report {
  readonly result: string;
  readonly failed_operations: number;
  readonly retries_observed: number;
  readonly workload: { readonly exit_code: number };
  readonly faults: readonly { readonly expect: string; readonly injected: number }[];
  readonly recovery: { readonly required: number; readonly successful: number };
  readonly checks: readonly {
    name: string;
    mode: string;
    passed: boolean;
    findings: Record<string, unknown>[];
  }[];
  readonly diagnostics: readonly string[];
}

const DEFAULT_CHECKS = [
  ["retry_after", "enforce", true, 0],
  ["retry_storm", "report", true, 0],
  ["duplicate_writes", "report", true, 0],
] as const;

/** The checks and expectations examples of docs/examples.md, row by row. */
const EXAMPLES: readonly Example[] = [
  {
    file: "scenarios/v2/checks/retry_after_honoured",
    result: "RECOVERED",
    reason: "RECOVERY_OBSERVED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ stdout }) => expect(stdout).toContain("Check retry_after:      passed\n"),
  },
  {
    file: "scenarios/v2/checks/retry_after_ignored",
    result: "FAILED",
    reason: "RETRY_AFTER_NOT_HONOURED",
    exit: 1,
    checks: [["retry_after", "enforce", false, 1], ...DEFAULT_CHECKS.slice(1)],
    more: ({ report, stdout }) => {
      const [finding] = report.checks[0]?.findings ?? [];
      expect(finding).toMatchObject({ retry_after_ms: 1000 });
      expect(finding?.gap_ms).toBeLessThan(950);
      expect(report.diagnostics).toEqual([
        `operation llm POST /v1/chat/completions #1 was retried ${finding?.gap_ms} ms after a response that asked for 1000 ms`,
        "check retry_after is enforced (retry_after is enforced by default); to report its findings without failing the run, set checks: {retry_after: report} in the scenario",
      ]);
      // The JSON keeps the ids; people read labels.
      expect(finding?.failed_operation_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(stdout).toContain("Check retry_after:      1 finding\n");
    },
  },
  {
    file: "scenarios/v2/checks/retry_after_ignored_report",
    result: "RECOVERED",
    reason: "RECOVERY_OBSERVED",
    exit: 0,
    checks: [["retry_after", "report", false, 1], ...DEFAULT_CHECKS.slice(1)],
    more: ({ report, stdout }) => {
      expect(report.diagnostics).toEqual([]);
      expect(stdout).toContain("Check retry_after:      1 finding (report only)\n");
    },
  },
  {
    file: "scenarios/v2/checks/retry_storm_hammering",
    result: "FAILED",
    reason: "RETRY_STORM",
    exit: 1,
    checks: [DEFAULT_CHECKS[0], ["retry_storm", "enforce", false, "some"], DEFAULT_CHECKS[2]],
    more: ({ report }) => {
      // The chain of 7 calls always; each quick retry too, when the machine kept it under 100 ms.
      expect(report.checks[1]?.findings[0]).toMatchObject({ operations: 7 });
      expect(report.diagnostics[0]).toMatch(
        /^the retry chain of operation llm POST \/v1\/chat\/completions #1 has 7 operations, more than 5$/,
      );
      expect(report.retries_observed).toBe(6);
    },
  },
  {
    file: "scenarios/v2/expect/langchain_400_gives_up",
    result: "PASSED",
    reason: "FAILURE_HANDLED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, agent }) => {
      expect(report.faults).toEqual([expect.objectContaining({ expect: "give_up", injected: 1 })]);
      expect(report.workload.exit_code).toBe(3);
      expect(report.retries_observed).toBe(0);
      expect(agent).toContain("The model rejected the request (status 400); not retrying\n");
    },
  },
  {
    file: "scenarios/v2/expect/langchain_400_retried",
    result: "FAILED",
    reason: "UNEXPECTED_RETRY",
    exit: 1,
    checks: DEFAULT_CHECKS,
    more: ({ report, stdout }) => {
      expect(report.workload.exit_code).toBe(0);
      expect(report.retries_observed).toBe(1);
      expect(report.diagnostics[0]).toMatch(
        /^operation llm POST \/v1\/chat\/completions #1 failed under fault bad-request, which expects give_up, and was retried by operation llm POST \/v1\/chat\/completions #2$/,
      );
      expect(stdout).toContain("Workload exit:          exit code 0 (expected 3)\n");
    },
  },
  {
    file: "scenarios/v2/expect/weather_tool_down_handled",
    result: "PASSED",
    reason: "FAILURE_HANDLED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, agent }) => {
      expect(report.faults).toEqual([expect.objectContaining({ expect: "handle", injected: 1 })]);
      expect(report.recovery).toMatchObject({ required: 0, successful: 0 });
      expect(agent).toContain("weather: service unavailable, telling the model\n");
      expect(agent).toMatch(/^Answer: \d+ characters after 2 steps$/m);
    },
  },
  {
    file: "scenarios/v2/expect/events_feed_503_handled",
    result: "PASSED",
    reason: "FAILURE_HANDLED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, agent }) => {
      expect(report.failed_operations).toBe(1);
      expect(report.retries_observed).toBe(0);
      expect(agent).toContain("events: feed unavailable (status 503), working without updates\n");
      expect(agent).toContain("model: reply written\n");
    },
  },
  {
    file: "scenarios/v2/expect/events_feed_closed_baseline",
    result: "PASSED",
    reason: "BASELINE_SUCCEEDED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, stdout }) => {
      expect(report.failed_operations).toBe(0);
      expect(stdout).toContain("Failed operations:      0\n");
      expect(stdout).toMatch(
        /^\d{4}\.\d{3} {2}[a-z_]+ +GET \S+ #\d+ succeeded: 200 \(stream closed by the workload after \d+ events?\)$/m,
      );
    },
  },
  {
    file: "mcp/scenarios/http_listening_stream_503_handled",
    result: "PASSED",
    reason: "FAILURE_HANDLED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, stdout, agent }) => {
      expect(report.failed_operations).toBe(1);
      expect(report.retries_observed).toBe(0);
      expect(stdout).toMatch(/^\d{4}\.\d{3} {2}notes {10}GET \/mcp #1$/m);
      expect(agent).toContain("add_note: done\n");
    },
  },
  {
    file: "mcp/scenarios/http_listening_stream_closed_baseline",
    result: "PASSED",
    reason: "BASELINE_SUCCEEDED",
    exit: 0,
    checks: DEFAULT_CHECKS,
    more: ({ report, stdout }) => {
      expect(report.failed_operations).toBe(0);
      expect(stdout).toContain("Failed operations:      0\n");
      expect(stdout).toMatch(
        /^\d{4}\.\d{3} {2}[a-z_]+ +GET \S+ #\d+ succeeded: 200 \(stream closed by the workload after \d+ events?\)$/m,
      );
    },
  },
];

const out = testFolder("all");

/**
 * The examples run three at a time before the tests: most of each run is a wait (streams, Retry-After).
 * They run in this process through the CLI code (examples.test.ts runs the built executable).
 */
const runOf = runsAhead(
  EXAMPLES.map((example) => example.file),
  async (file) => {
    const outputDir = join(out.path, file);
    return { outputDir, run: await runCliHere(["run", `examples/${file}.yaml`, "--output-dir", outputDir]) };
  },
);

describe("the checks and expectations examples, and the listening-stream MCP examples, through the CLI", () => {
  it.each(EXAMPLES)("$file ends $result / $reason with exit $exit", async (example) => {
    const { outputDir, run } = await runOf(example.file);
    expect(run.stderr).toBe("");
    expect(run.code, run.stdout).toBe(example.exit);
    const runDir = onlyRunDir(outputDir);
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8")) as Report;
    expect(report).toMatchObject({ schema_version: 4, result: example.result, reason_code: example.reason });
    expect(
      report.checks.map((check) => [
        check.name,
        check.mode,
        check.passed,
        check.findings.length > 0 && example.checks.some((c) => c[0] === check.name && c[3] === "some")
          ? "some"
          : check.findings.length,
      ]),
    ).toEqual(example.checks);
    expect(run.stdout).toContain(`Result: ${example.result}\nReason: ${example.reason}\n`);
    example.more({ report, stdout: run.stdout, agent: await readFile(join(runDir, "stdout.log"), "utf8") });
    const inspected = await runCliHere(["inspect", runDir]);
    expect(run.stdout.endsWith(inspected.stdout)).toBe(true);
  });
});
