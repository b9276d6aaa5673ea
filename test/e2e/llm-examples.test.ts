import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { suiteOfExamples } from "../helpers/suite-runs.js";

/** The table of LLM scenarios in docs/examples.md: file → result, reason, exit, injected, retries. */
const TABLE = [
  ["openai_429_recovery", "RECOVERED", "RECOVERY_OBSERVED", 0, 1, 1],
  ["openai_503_recovery", "RECOVERED", "RECOVERY_OBSERVED", 0, 1, 1],
  ["openai_disconnect_recovery", "RECOVERED", "RECOVERY_OBSERVED", 0, 1, 1],
  ["openai_503_no_retries_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, 1, 0],
  ["anthropic_529_recovery", "RECOVERED", "RECOVERY_OBSERVED", 0, 1, 1],
  ["anthropic_429_recovery", "RECOVERED", "RECOVERY_OBSERVED", 0, 1, 1],
  ["openai_stream_no_fault", "PASSED", "BASELINE_SUCCEEDED", 0, 0, 0],
  ["anthropic_stream_latency_tolerated", "PASSED", "FAULT_TOLERATED", 0, 1, 0],
] as const;

const out = testFolder("all");

const fileOf = (name: string): string => `examples/scenarios/llm/${name}.yaml`;
/** One suite runs every example once; every test about an example reads that run. */
const runOf = suiteOfExamples(
  TABLE.map(([name]) => fileOf(name)),
  () => out.path,
);

describe("official-SDK agents under faults, through one suite of the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit, injected, retries) => {
    const { exitCode, runDir, report, explain } = await runOf(fileOf(name));
    expect(exitCode, explain).toBe(exit);
    expect(report).toMatchObject({
      result,
      reason_code: reason,
      faults_injected: injected,
      retries_observed: retries,
    });
    const stdout = await readFile(join(runDir, "stdout.log"), "utf8");
    if (exit === 0) expect(stdout).toContain("Answer: Echo: Say hello to Agent Chaos\n");
  });

  it("a streamed completion reaches the agent in pieces spread over time, not all at once", async () => {
    const { exitCode, runDir } = await runOf(fileOf("openai_stream_no_fault"));
    expect(exitCode).toBe(0);
    const stdout = await readFile(join(runDir, "stdout.log"), "utf8");
    const chunks = Number(/Streamed chunks: (\d+)/.exec(stdout)?.[1]);
    const spread = Number(/Stream spread ms: (\d+)/.exec(stdout)?.[1]);
    expect(chunks).toBeGreaterThan(2);
    // The fake LLM waits 50 ms between chunks (--token-delay-ms); a buffering proxy would deliver them together.
    expect(spread).toBeGreaterThanOrEqual((chunks - 1) * 20);
  });
});

interface RunEvent {
  readonly type: string;
  readonly elapsed_ms: number;
  readonly payload: Record<string, unknown>;
}

/** The agent's exit code and the requests the proxy saw, read from an example's run folder. */
async function agentRun(name: string): Promise<{ exit: unknown; requests: RunEvent[] }> {
  const { runDir } = await runOf(fileOf(name));
  const events: RunEvent[] = (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const exit = events.find((event) => event.type === "WORKLOAD_COMPLETED")?.payload.exit_code;
  return { exit, requests: events.filter((event) => event.type === "OPERATION_OBSERVED") };
}

/** How the SDKs of the example agents retry, read from the same runs (what the proxy saw). */
describe("the example agents' SDK retries, in those runs", () => {
  it.each(["openai_429_recovery", "anthropic_429_recovery"])(
    "%s: the SDK retries after a 429, waiting the Retry-After seconds",
    async (name) => {
      const { exit, requests } = await agentRun(name);
      expect(exit).toBe(0);
      const [first, second] = requests;
      expect((second?.elapsed_ms ?? Number.NaN) - (first?.elapsed_ms ?? Number.NaN)).toBeGreaterThanOrEqual(
        950,
      );
    },
  );

  it("openai: the SDK retries a dropped connection", async () => {
    const { exit, requests } = await agentRun("openai_disconnect_recovery");
    expect(exit).toBe(0);
    expect(requests).toHaveLength(2);
  });

  it("openai: LLM_MAX_RETRIES=0 makes a single attempt, and the agent exits 1", async () => {
    const { exit, requests } = await agentRun("openai_503_no_retries_failure");
    expect(exit).toBe(1);
    expect(requests).toHaveLength(1);
  });
});
