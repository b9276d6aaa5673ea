import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { suiteOfExamples } from "../helpers/suite-runs.js";

/** The model-fault examples (docs/examples.md): file → result, reason, exit, a line the agent printed. */
const TABLE = [
  [
    "openai_tool_args_invalid_reask_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Here is what I could find",
  ],
  ["openai_tool_args_invalid_crash_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, null],
  [
    "anthropic_tool_args_invalid_reask_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Here is what I could find",
  ],
  ["anthropic_tool_args_invalid_crash_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, null],
  [
    "ai_sdk_tool_args_invalid_reask_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: The weather tool was asked about Paris.",
  ],
  ["ai_sdk_tool_args_invalid_crash_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1, null],
  [
    "openai_auth_expired_refresh_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos",
  ],
  [
    "anthropic_auth_expired_refresh_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos",
  ],
  [
    "ai_sdk_auth_expired_refresh_recovered",
    "RECOVERED",
    "RECOVERY_OBSERVED",
    0,
    "Answer: Echo: Say hello to Agent Chaos",
  ],
] as const;

const out = testFolder("all");
const fileOf = (name: string): string => `examples/scenarios/v2/model-faults/${name}.yaml`;
const runOf = suiteOfExamples(
  TABLE.map(([name]) => fileOf(name)),
  () => out.path,
);

describe("model-fault examples on the official clients, through one suite of the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit, printed) => {
    const { exitCode, runDir, report, explain } = await runOf(fileOf(name));
    expect(exitCode, explain).toBe(exit);
    expect(report).toMatchObject({ schema_version: 5, result, reason_code: reason, faults_injected: 1 });
    const firstEvent = JSON.parse(
      (await readFile(join(runDir, "events.jsonl"), "utf8")).split("\n")[0] ?? "",
    );
    expect(firstEvent.schema_version).toBe(3);
    expect(report.faults).toEqual([expect.objectContaining({ injected: 1, not_applied: 0 })]);
    const events = (await readFile(join(runDir, "events.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const failed = events.find((event) => event.type === "OPERATION_FAILED");
    const kind = name.includes("auth_expired") ? "injected_auth_expired" : "injected_misbehaviour";
    expect(failed?.payload).toMatchObject({ failure_kind: kind, fault_related: true });
    if (printed !== null) expect(await readFile(join(runDir, "stdout.log"), "utf8")).toContain(printed);
  });
});
