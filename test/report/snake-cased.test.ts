import { describe, expect, it } from "vitest";
import { probabilityTrigger } from "../../src/report/build.js";
import { snakeCased } from "../../src/report/snake-cased.js";
import { reportTrigger } from "../../src/report/v4/lasting-trigger.js";

describe("snakeCased", () => {
  it("renames every key all the way down and keeps their order", () => {
    const value = { startMs: 1, window: { endOccurrence: 3, startOccurrence: 2 }, rows: [{ faultId: "a" }] };
    const written = snakeCased(value);
    expect(JSON.stringify(written)).toBe(
      '{"start_ms":1,"window":{"end_occurrence":3,"start_occurrence":2},"rows":[{"fault_id":"a"}]}',
    );
  });

  it("copies lists and keeps scalars, null and big integers as they are", () => {
    const list = [1, 2];
    const written = snakeCased({
      selectedOccurrences: list,
      seed: 2n ** 64n - 1n,
      firstSelectedOrdinal: null,
    });
    expect(written.selected_occurrences).toEqual([1, 2]);
    expect(written.selected_occurrences).not.toBe(list);
    expect(written.seed).toBe(18446744073709551615n);
    expect(written.first_selected_ordinal).toBeNull();
  });
});

describe("reportTrigger", () => {
  it("writes a probability window without the analysis's consistency flag, keys in file order", () => {
    const evidence = {
      kind: "seeded_probability" as const,
      probability: 0.5,
      seed: 7n,
      window: { startOccurrence: 1, endOccurrence: 4 },
      evaluatedOccurrences: 4,
      selectedOccurrences: [2, 3],
      completed: true,
      consistent: true,
    };
    const expected = [
      "kind",
      "probability",
      "seed",
      "window",
      "evaluated_occurrences",
      "selected_occurrences",
      "completed",
    ];
    expect(Object.keys(reportTrigger(evidence))).toEqual(expected);
    expect(probabilityTrigger(evidence)).toEqual(reportTrigger(evidence));
    expect(Object.keys(probabilityTrigger(evidence).window)).toEqual(["start_occurrence", "end_occurrence"]);
  });

  it("writes an outage's and a quota's evidence with their own keys", () => {
    const outage = {
      kind: "outage" as const,
      startMs: 2000,
      durationMs: 3000,
      selected: 4,
      firstSelectedOrdinal: 3,
      lastSelectedOrdinal: 6,
    };
    expect(reportTrigger(outage)).toEqual({
      kind: "outage",
      start_ms: 2000,
      duration_ms: 3000,
      selected: 4,
      first_selected_ordinal: 3,
      last_selected_ordinal: 6,
    });
    const quota = {
      kind: "quota" as const,
      unit: "tokens" as const,
      limit: 10,
      perMs: 1000,
      counted: 12,
      selected: 1,
    };
    expect(Object.keys(reportTrigger(quota))).toEqual([
      "kind",
      "unit",
      "limit",
      "per_ms",
      "counted",
      "selected",
    ]);
  });
});
