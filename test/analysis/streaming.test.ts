import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.js";
import { AnalysisStream } from "../../src/analysis/stream/analysis-stream.js";
import { AnalysisStreamV2 } from "../../src/analysis/stream/analysis-stream-v2.js";
import { analyzeV2 } from "../../src/analysis/v2/analyze.js";
import type { AgentChaosEvent } from "../../src/events/types.js";
import type { AgentChaosEventV2 } from "../../src/events/types-v2.js";
import type { Scenario } from "../../src/scenario/types.js";
import type { ScenarioV2 } from "../../src/scenario/types-v2.js";
import { randomRun } from "./random-logs.js";

const text = (value: unknown) =>
  JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `${item}n` : item));

/** Streams a log; the analysis, or null when the stream handed it to the batch analyzer. */
function streamed(scenario: Scenario | ScenarioV2, events: readonly (AgentChaosEvent | AgentChaosEventV2)[]) {
  if (scenario.schemaVersion === 1) {
    const stream = new AnalysisStream(scenario);
    return events.every((event) => stream.push(event as AgentChaosEvent)) ? stream.result() : null;
  }
  const stream = new AnalysisStreamV2(scenario);
  return events.every((event) => stream.push(event as AgentChaosEventV2)) ? stream.result() : null;
}

function batch(scenario: Scenario | ScenarioV2, events: readonly (AgentChaosEvent | AgentChaosEventV2)[]) {
  return scenario.schemaVersion === 1
    ? analyze(scenario, events as AgentChaosEvent[])
    : analyzeV2(scenario, events as AgentChaosEventV2[]);
}

describe.each([1, 2] as const)("streaming analysis, schema %i", (schema) => {
  it("equals the batch analysis on 600 random simulated runs, and streams every one of them", () => {
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

  it("equals the batch analysis after every event of a run, so a partial log is judged the same", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { scenario, events } = randomRun(seed * 17 + schema, schema, false);
      for (let end = 0; end <= events.length; end += 3) {
        const prefix = events.slice(0, end);
        expect(text(streamed(scenario, prefix)), `seed ${seed} end ${end}`).toBe(
          text(batch(scenario, prefix)),
        );
      }
    }
  });

  it("on 600 damaged runs either equals the batch analysis or hands the log to it", () => {
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
