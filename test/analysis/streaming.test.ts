import { describe, expect, it } from "vitest";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import type { Scenario } from "../../src/scenario/types.js";
import { type AnyEvent, analyzeAny as batch, streamAny, analysisText as text } from "./any-schema.js";
import { randomRun } from "./random-logs.js";

/** Streams a log through the bounded analysis; null when it hands the log to the whole-log analysis. */
function streamed(scenario: LegacyScenario | Scenario, events: readonly AnyEvent[]) {
  const stream = streamAny(scenario);
  return events.every((event) => stream.push(event)) ? stream.result() : null;
}

describe.each([1, 2] as const)("streaming analysis, schema %i", (schema) => {
  it("equals the whole-log analysis on 600 random simulated runs, and streams every one of them", () => {
    const results = new Set<string>();
    for (let seed = 1; seed <= 600; seed++) {
      const { scenario, events } = randomRun(seed * 31 + schema, schema, false);
      const expected = batch(scenario, events);
      const actual = streamed(scenario, events);
      expect(actual, `seed ${seed}`).not.toBeNull();
      expect(text(actual), `seed ${seed}`).toBe(text(expected));
      results.add(`${expected.result} ${expected.reasonCode}`);
    }
    // The runs reach many different verdicts, not one easy path.
    expect(results.size).toBeGreaterThan(schema === 1 ? 6 : 9);
  });

  it("equals the whole-log analysis after every event of a run, so a partial log is judged the same", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { scenario, events } = randomRun(seed * 17 + schema, schema, false);
      // One stream, judged between events: drawing the evidence never changes it.
      const stream = streamAny(scenario);
      for (let end = 0; end <= events.length; end += 3) {
        for (const event of events.slice(Math.max(0, end - 3), end)) stream.push(event);
        expect(text(stream.result()), `seed ${seed} end ${end}`).toBe(
          text(batch(scenario, events.slice(0, end))),
        );
      }
    }
  });

  it("on 600 damaged runs either equals the whole-log analysis or hands the log to it", () => {
    let streamedRuns = 0;
    let handedOver = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const { scenario, events } = randomRun(seed * 13 + schema, schema, true);
      const actual = streamed(scenario, events);
      if (actual === null) {
        handedOver += 1;
        continue;
      }
      streamedRuns += 1;
      expect(text(actual), `seed ${seed}`).toBe(text(batch(scenario, events)));
    }
    expect(streamedRuns).toBeGreaterThan(50);
    expect(handedOver).toBeGreaterThan(50);
  });
});
