import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { suiteOfExamples } from "../helpers/suite-runs.js";

/**
 * The quota and outage examples (docs/examples.md): file → result, reason, exit, and the trigger
 * evidence of the report that must hold on every run (counts that depend on timing are bounded).
 */
const TABLE = [
  ["openai_quota_retry_after_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["anthropic_quota_storm_failure", "FAILED", "RETRY_AFTER_NOT_HONOURED", 1],
  ["ai_sdk_token_quota_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["ai_sdk_outage_backoff_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["anthropic_outage_backoff_recovered", "RECOVERED", "RECOVERY_OBSERVED", 0],
  ["openai_outage_no_backoff_failure", "FAILED", "WORKLOAD_EXIT_CODE_MISMATCH", 1],
] as const;

const out = testFolder("all");
const fileOf = (name: string): string => `examples/scenarios/v2/model-faults/${name}.yaml`;
/** One suite process, one scenario at a time as before: the outage windows are timed. */
const runOf = suiteOfExamples(
  TABLE.map(([name]) => fileOf(name)),
  () => out.path,
  1,
);

async function eventsOf(runDir: string): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  return (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("quota and outage examples on the official clients, through one suite of the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, result, reason, exit) => {
    const { exitCode, runDir, report, explain } = await runOf(fileOf(name));
    expect(exitCode, explain).toBe(exit);
    expect(report).toMatchObject({ schema_version: 5, result, reason_code: reason });
    const events = await eventsOf(runDir);
    expect(
      new Set(events.map((event) => (event as unknown as { schema_version: number }).schema_version)),
    ).toEqual(new Set([3]));
    const [fault] = report.faults;
    const injected = events.filter((event) => event.type === "FAULT_INJECTED");
    expect(fault.injected).toBe(injected.length);
    expect(fault.trigger.selected).toBe(injected.length);
    expect(injected.length).toBeGreaterThan(0);
    if (fault.trigger.kind === "quota") {
      // Every 429 carries the wait until the window has room again: 1 to 4 s for a 4 s window.
      for (const event of injected) {
        const seconds = (event.payload.parameters as { retry_after_seconds: number }).retry_after_seconds;
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(4);
      }
      const observed = events.filter((event) => event.type === "OPERATION_OBSERVED").length;
      if (fault.trigger.unit === "requests") {
        expect(fault.trigger.counted).toBe(observed - injected.length);
      } else {
        const tokens = events
          .filter((event) => event.type === "TOKENS_COUNTED")
          .reduce((sum, event) => sum + (event.payload.tokens as number), 0);
        expect(fault.trigger.counted).toBe(tokens);
        expect(tokens).toBeGreaterThanOrEqual(fault.trigger.limit);
      }
    } else {
      expect(fault.trigger).toMatchObject({ kind: "outage", start_ms: 1000, duration_ms: 2000 });
      expect(fault.trigger.first_selected_ordinal).toBeLessThanOrEqual(fault.trigger.last_selected_ordinal);
      // Every selected operation was observed inside the outage, on the events' clock.
      const started = events.find((event) => event.type === "WORKLOAD_STARTED") as unknown as {
        elapsed_ms: number;
      };
      const observedAt = new Map(
        events
          .filter((event) => event.type === "OPERATION_OBSERVED")
          .map((event) => [
            event.payload.operation_id,
            (event as unknown as { elapsed_ms: number }).elapsed_ms,
          ]),
      );
      for (const event of injected) {
        const offset = (observedAt.get(event.payload.operation_id) as number) - started.elapsed_ms;
        expect(offset).toBeGreaterThanOrEqual(1000);
        expect(offset).toBeLessThan(3000);
      }
    }
  });
});
