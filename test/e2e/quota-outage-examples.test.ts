import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testFolder } from "../helpers/cli.js";
import { observedInOutage } from "../helpers/outage-window.js";
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

/** The outage examples' window: 2 s from 1 s after WORKLOAD_STARTED. */
const OUTAGE = { startMs: 1000, durationMs: 2000 };

describe("quota and outage examples on the official clients, through one suite of the built CLI", () => {
  it.each(TABLE)("%s ends %s / %s with exit %i", async (name, listedResult, listedReason, listedExit) => {
    const { exitCode, runDir, report, explain } = await runOf(fileOf(name));
    const events = await eventsOf(runDir);
    const [fault] = report.faults;
    // The outage is timed from WORKLOAD_STARTED on the events' clock. A machine busy enough that
    // the agent's first model call (after loading its client) comes when the outage is over selects
    // nothing: then the verdict is FAULT_NOT_TRIGGERED (docs/model-faults.md), and the events show it.
    const missed = fault?.trigger?.kind === "outage" && observedInOutage(events, OUTAGE).inside === 0;
    const [result, reason, exit] = missed
      ? ["FAILED", "FAULT_NOT_TRIGGERED", 1]
      : [listedResult, listedReason, listedExit];
    expect(exitCode, explain).toBe(exit);
    expect(report).toMatchObject({ schema_version: 5, result, reason_code: reason });
    expect(
      new Set(events.map((event) => (event as unknown as { schema_version: number }).schema_version)),
    ).toEqual(new Set([3]));
    const injected = events.filter((event) => event.type === "FAULT_INJECTED");
    if (missed) {
      expect(injected).toEqual([]);
      expect(fault.trigger.selected).toBe(0);
      return;
    }
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
      expect(fault.trigger).toMatchObject({
        kind: "outage",
        start_ms: OUTAGE.startMs,
        duration_ms: OUTAGE.durationMs,
      });
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
        expect(offset).toBeGreaterThanOrEqual(OUTAGE.startMs);
        expect(offset).toBeLessThan(OUTAGE.startMs + OUTAGE.durationMs);
      }
    }
  });
});
