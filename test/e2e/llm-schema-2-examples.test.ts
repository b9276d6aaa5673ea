import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { suiteOfExamples } from "../helpers/suite-runs.js";

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
    const { exitCode, runDir, report, explain } = await runOf(fileOf(name));
    expect(exitCode, explain).toBe(exit);
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

interface RunEvent {
  readonly type: string;
  readonly elapsed_ms: number;
  readonly payload: Record<string, unknown>;
}

/** A run's agent output and events, read from its run folder. */
async function agentRun(name: string): Promise<{
  exit: unknown;
  lines: string[];
  stdout: string;
  stderr: string;
  events: RunEvent[];
  ofType: (type: string) => RunEvent[];
}> {
  const { runDir } = await runOf(fileOf(name));
  const stdout = await readFile(join(runDir, "stdout.log"), "utf8");
  const stderr = await readFile(join(runDir, "stderr.log"), "utf8");
  const events: RunEvent[] = (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const ofType = (type: string): RunEvent[] => events.filter((event) => event.type === type);
  const exit = ofType("WORKLOAD_COMPLETED")[0]?.payload.exit_code;
  return { exit, lines: stdout.split("\n").filter((l) => l !== ""), stdout, stderr, events, ofType };
}

const FULL_ANSWER = "Answer: Echo: Say hello to Agent Chaos";

/**
 * What the official SDKs do under these faults, read from the same runs: the agent's own exit
 * code and output, and what the proxy recorded (docs/examples.md relies on this behaviour).
 */
describe("the official SDKs' behaviour under the schema-2 LLM faults, in those runs", () => {
  it("openai: a stream cut before [DONE] ends the iteration quietly; the agent prints a partial answer and exits 0", async () => {
    const run = await agentRun("openai_stream_truncated_accepted");
    expect(run.exit).toBe(0);
    expect(run.lines[0]).toBe("Answer: Echo: Say hello ");
    expect(run.ofType("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("openai: an agent that requires a finish_reason calls again and gets the whole answer", async () => {
    const run = await agentRun("openai_stream_truncated_recovered");
    expect(run.exit).toBe(0);
    expect(run.lines[0]).toBe(FULL_ANSWER);
    expect(run.stderr).toContain("call 1 failed (IncompleteStream); calling again");
    expect(run.ofType("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: an overloaded_error event mid-stream throws, and the SDK never retries a started stream", async () => {
    const run = await agentRun("anthropic_stream_overloaded_failure");
    expect(run.exit).toBe(1);
    expect(run.stderr).toBe("anthropic-agent: LLM call failed: APIError\n");
    expect(run.ofType("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: an agent that makes the whole call again survives the error event", async () => {
    const run = await agentRun("anthropic_stream_overloaded_recovered");
    expect(run.exit).toBe(0);
    expect(run.lines[0]).toBe(FULL_ANSWER);
    expect(run.ofType("OPERATION_SUCCEEDED")).toHaveLength(1);
  });

  it("openai: with no idle timeout the SDK waits out a stall and gets the whole answer", async () => {
    const run = await agentRun("openai_stream_stall_waited");
    // The operation outlasts the 1500 ms stall on the events' clock (a lower bound: load only adds time).
    const [observed] = run.ofType("OPERATION_OBSERVED");
    const [succeeded] = run.ofType("OPERATION_SUCCEEDED");
    expect(
      (succeeded?.elapsed_ms ?? Number.NaN) - (observed?.elapsed_ms ?? Number.NaN),
    ).toBeGreaterThanOrEqual(1500);
    expect(run.exit).toBe(0);
    expect(run.lines[0]).toBe(FULL_ANSWER);
    expect(run.stdout).toMatch(/Stream spread ms: \d+/);
    expect(succeeded?.payload).toMatchObject({ fault_related: true, relayed_events: 9 });
  });

  it("openai: an agent with a stream idle timeout gives up on the stall and calls again", async () => {
    const run = await agentRun("openai_stream_stall_idle_timeout_recovered");
    expect(run.exit).toBe(0);
    expect(run.lines[0]).toBe(FULL_ANSWER);
    expect(run.stderr).toContain("call 1 failed (StreamIdle)");
    expect(run.ofType("OPERATION_FAILED")[0]?.payload).toMatchObject({
      failure_kind: "client_disconnected",
      relayed_events: 3,
    });
  });

  it("openai: a 429 with retry-after-ms is retried after that many milliseconds", async () => {
    const run = await agentRun("openai_429_retry_after_ms_recovered");
    expect(run.exit).toBe(0);
    expect(run.lines).toEqual([FULL_ANSWER]);
    const [first, second] = run.ofType("OPERATION_OBSERVED");
    expect((second?.elapsed_ms ?? Number.NaN) - (first?.elapsed_ms ?? Number.NaN)).toBeGreaterThanOrEqual(
      1200,
    );
    expect(run.ofType("OPERATION_FAILED")[0]?.payload.retry_after_ms).toBe(1200);
    expect(run.ofType("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: a 529 with x-should-retry: false is not retried", async () => {
    const run = await agentRun("anthropic_529_should_not_retry_failure");
    expect(run.exit).toBe(1);
    expect(run.stderr).toBe("anthropic-agent: LLM call failed: OverloadedError\n");
    expect(run.ofType("OPERATION_OBSERVED")).toHaveLength(1);
  });
});
