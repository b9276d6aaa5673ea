import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { suiteOfExamples } from "../helpers/example-suite.js";

/** The table of schema-2 LLM scenarios in docs/examples.md: file → result, reason, exit, a line the agent printed. */
const TABLE = [
  [
    "openai_stream_truncated_accepted",
    "FAILED",
    "PARTIAL_RESPONSE_ACCEPTED",
    1,
    "Answer: Echo: Say hello \n",
  ],
  [
    "openai_stream_truncated_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos\n",
  ],
  ["anthropic_stream_overloaded_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, null],
  [
    "anthropic_stream_overloaded_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos\n",
  ],
  ["openai_stream_stall_waited", "PASSED", "FAULT_TOLERATED", 0, "Answer: Echo: Say hello to Agent Chaos\n"],
  [
    "openai_stream_stall_idle_timeout_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos\n",
  ],
  [
    "openai_429_retry_after_ms_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos\n",
  ],
  ["anthropic_529_should_not_retry_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, null],
  ["ticket_response_lost_duplicate", "FAILED", "DUPLICATE_WRITE", 1, "Tickets on the server: 2\n"],
  ["ticket_response_lost_idempotent", "RECOVERED", "RECOVERY_OBSERVED", 0, "Tickets on the server: 1\n"],
] as const;

/** What the checks found in the examples the checks table of docs/examples.md reuses: check → findings. */
const CHECK_FINDINGS: Record<string, Record<string, number>> = {
  openai_429_retry_after_ms_recovered: { retry_after: 0 },
  ticket_response_lost_duplicate: { duplicate_writes: 1 },
  ticket_response_lost_idempotent: { duplicate_writes: 0 },
};

const out = testFolder("all");
const fileOf = (name: string): string => `examples/scenarios/v2/llm/${name}.yaml`;
const runOf = suiteOfExamples(
  TABLE.map(([name]) => fileOf(name)),
  () => out.path,
);

describe("schema-2 LLM examples on the official SDKs, through one suite of the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit, printed) => {
    const { exitCode, runDir, report, suite } = await runOf(fileOf(name));
    expect(exitCode, suite.stdout).toBe(exit);
    expect(report).toMatchObject({ schema_version: 4, result, reason_code: reason, faults_injected: 1 });
    expect(report.faults).toEqual([expect.objectContaining({ injected: 1, not_applied: 0 })]);
    if (printed !== null) expect(await readFile(join(runDir, "stdout.log"), "utf8")).toContain(printed);
    for (const [checkName, findings] of Object.entries(CHECK_FINDINGS[name] ?? {})) {
      const check = report.checks.find((c: { name: string }) => c.name === checkName);
      expect({ checkName, passed: check.passed, findings: check.findings.length }).toEqual({
        checkName,
        passed: findings === 0,
        findings,
      });
    }
  });
});
