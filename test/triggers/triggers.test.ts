import { describe, expect, it } from "vitest";
import type { OccurrenceTrigger } from "../../src/scenario/types.js";
import { createTriggerState } from "../../src/triggers/index.js";

function selected(trigger: OccurrenceTrigger, occurrences: number): number[] {
  const state = createTriggerState(trigger);
  const picked: number[] = [];
  for (let k = 1; k <= occurrences; k++) if (state.decide()) picked.push(k);
  return picked;
}

function window(probability: number, seed: bigint, start: number, end: number): OccurrenceTrigger {
  return {
    kind: "seeded_probability",
    probability,
    probabilityMillionths: Math.round(probability * 1_000_000),
    seed,
    window: { startOccurrence: start, endOccurrence: end },
  };
}

describe("occurrence schedule", () => {
  it("selects exactly the scheduled occurrences, each once", () => {
    expect(selected({ kind: "occurrence_schedule", occurrences: [2, 3, 7] }, 20)).toEqual([2, 3, 7]);
  });

  it("treats a single occurrence like a one-entry schedule and passes everything after it", () => {
    expect(selected({ kind: "occurrence_schedule", occurrences: [1] }, 5)).toEqual([1]);
  });

  it("keeps one counter per trigger state", () => {
    const trigger: OccurrenceTrigger = { kind: "occurrence_schedule", occurrences: [2] };
    const a = createTriggerState(trigger);
    const b = createTriggerState(trigger);
    expect([a.decide(), a.decide()]).toEqual([false, true]);
    expect([b.decide(), b.decide()]).toEqual([false, true]);
  });
});

describe("seeded probability window", () => {
  it("matches the golden vector: seed 10, p 0.5, window 1–10 selects 2, 4, 8, 9, 10", () => {
    expect(selected(window(0.5, 10n, 1, 10), 10)).toEqual([2, 4, 8, 9, 10]);
    expect(selected(window(0.5, 10n, 1, 6), 6)).toEqual([2, 4]);
  });

  it("never selects before the start or after the end of the window", () => {
    expect(selected(window(0.5, 10n, 3, 8), 20)).toEqual([4, 8]);
  });

  it("evaluates a window whose start equals its end once", () => {
    expect(selected(window(0.5, 10n, 9, 9), 20)).toEqual([9]);
    expect(selected(window(0.5, 10n, 3, 3), 20)).toEqual([]);
  });

  it("selects every occurrence of the window with probability 1", () => {
    expect(selected(window(1, 18446744073709551615n, 4, 9), 15)).toEqual([4, 5, 6, 7, 8, 9]);
  });
});
