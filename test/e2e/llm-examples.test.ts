import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliResult, onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";

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

const exampleRuns = new Map<string, Promise<{ outputDir: string; run: CliResult }>>();

/** Runs an example once; every test about that example reads the same run. */
function runExample(name: string): Promise<{ outputDir: string; run: CliResult }> {
  let pending = exampleRuns.get(name);
  if (pending === undefined) {
    const outputDir = join(out.path, name);
    pending = runBuiltCli(["run", `examples/scenarios/llm/${name}.yaml`, "--output-dir", outputDir]).then(
      (run) => ({ outputDir, run }),
    );
    exampleRuns.set(name, pending);
  }
  return pending;
}

describe("official-SDK agents under faults, through the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit, injected, retries) => {
    const { outputDir, run } = await runExample(name);
    expect(run.code, run.stdout).toBe(exit);
    const runDir = onlyRunDir(outputDir);
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
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
    const { outputDir, run } = await runExample("openai_stream_no_fault");
    expect(run.code).toBe(0);
    const stdout = await readFile(join(onlyRunDir(outputDir), "stdout.log"), "utf8");
    const chunks = Number(/Streamed chunks: (\d+)/.exec(stdout)?.[1]);
    const spread = Number(/Stream spread ms: (\d+)/.exec(stdout)?.[1]);
    expect(chunks).toBeGreaterThan(2);
    // The fake LLM waits 50 ms between chunks (--token-delay-ms); a buffering proxy would deliver them together.
    expect(spread).toBeGreaterThanOrEqual((chunks - 1) * 20);
  });
});
