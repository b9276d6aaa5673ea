import { describe, expect, it } from "vitest";
import { analyzeSchema1 } from "../../src/analysis/schema-1.js";
import type { ProbabilityEvidence } from "../../src/analysis/types.js";
import { type LegacyRunBuilder, legacyRunBuilder } from "../helpers/legacy-events.js";
import { injectedFailure, recoveredFault } from "./run-fixtures.js";
import { baselineScenario, probabilityScenario, scheduleScenario } from "./scenarios.js";

/** Observes `count` matching requests; those at the given ordinals are injected (and fail). */
function requests(
  run: LegacyRunBuilder,
  count: number,
  injectedOrdinals: readonly number[],
): LegacyRunBuilder {
  for (let ordinal = 1; ordinal <= count; ordinal++) {
    const op = `op-${ordinal}`;
    if (injectedOrdinals.includes(ordinal)) injectedFailure(run, op, `fp-${ordinal}`);
    else run.observed(op, `fp-${ordinal}`).succeeded(op);
  }
  return run;
}

const seed10 = (start: number, end: number) =>
  probabilityScenario({ probabilityMillionths: 500_000, seed: 10n, start, end });

function probabilityOf(analysis: ReturnType<typeof analyzeSchema1>): ProbabilityEvidence {
  if (analysis.trigger?.kind !== "seeded_probability") throw new Error("expected probability evidence");
  return analysis.trigger;
}

describe("occurrence schedule evidence", () => {
  it("lists the schedule and the prefix of it that injected", () => {
    const run = recoveredFault(legacyRunBuilder().setup(), "op-1", "op-2");
    const analysis = analyzeSchema1(scheduleScenario([2, 3, 5]), run.workloadCompleted().events());
    expect(analysis.trigger).toEqual({
      kind: "occurrence_schedule",
      scheduledOccurrences: [2, 3, 5],
      completedOccurrences: [2],
      completed: false,
    });
  });

  it("is complete when every scheduled occurrence injected, and is null for a baseline", () => {
    const run = requests(legacyRunBuilder().setup(), 3, [2, 3]);
    const analysis = analyzeSchema1(scheduleScenario([2, 3]), run.workloadCompleted().events());
    expect(analysis.trigger).toMatchObject({ completedOccurrences: [2, 3], completed: true });
    expect(analyzeSchema1(baselineScenario(), run.events()).trigger).toBeNull();
  });
});

describe("seeded probability evidence", () => {
  it("seed 10, probability 0.5, window 1-10 selects 2, 4, 8, 9 and 10 and is complete and consistent", () => {
    const run = requests(legacyRunBuilder().setup(), 10, [2, 4, 8, 9, 10]);
    const analysis = analyzeSchema1(seed10(1, 10), run.workloadCompleted().events());
    expect(analysis.trigger).toEqual({
      kind: "seeded_probability",
      probability: 0.5,
      seed: 10n,
      window: { startOccurrence: 1, endOccurrence: 10 },
      evaluatedOccurrences: 10,
      selectedOccurrences: [2, 4, 8, 9, 10],
      completed: true,
      consistent: true,
    });
    expect(analysis.reasonCode).toBe("RECOVERY_NOT_OBSERVED");
  });

  it("is incomplete when fewer matching requests than the window arrived", () => {
    const run = requests(legacyRunBuilder().setup(), 6, [2, 4]);
    const analysis = analyzeSchema1(seed10(1, 10), run.workloadCompleted().events());
    expect(probabilityOf(analysis)).toMatchObject({
      evaluatedOccurrences: 6,
      selectedOccurrences: [2, 4],
      completed: false,
      consistent: true,
    });
    expect(analysis.reasonCode).toBe("TRIGGER_WINDOW_INCOMPLETE");
  });

  it("counts occurrences before the window start but evaluates only the window", () => {
    const run = requests(legacyRunBuilder().setup(), 12, [8, 9, 10]);
    const evidence = probabilityOf(analyzeSchema1(seed10(5, 10), run.workloadCompleted().events()));
    expect(evidence).toMatchObject({
      evaluatedOccurrences: 6,
      selectedOccurrences: [8, 9, 10],
      consistent: true,
    });
    const early = requests(legacyRunBuilder().setup(), 3, []);
    expect(
      probabilityOf(analyzeSchema1(seed10(5, 10), early.workloadCompleted().events())).evaluatedOccurrences,
    ).toBe(0);
  });

  it("a complete window in which nothing was selected fails as FAULT_NOT_TRIGGERED", () => {
    const run = requests(legacyRunBuilder().setup(), 7, []);
    const analysis = analyzeSchema1(seed10(5, 7), run.workloadCompleted().events());
    expect(probabilityOf(analysis)).toMatchObject({
      evaluatedOccurrences: 3,
      selectedOccurrences: [],
      completed: true,
      consistent: true,
    });
    expect([analysis.result, analysis.reasonCode]).toEqual(["FAILED", "FAULT_NOT_TRIGGERED"]);
  });

  it("is contradicted by an injection at an ordinal that was not selected", () => {
    const run = requests(legacyRunBuilder().setup(), 6, [2, 3, 4]);
    const analysis = analyzeSchema1(seed10(1, 6), run.workloadCompleted().events());
    expect(probabilityOf(analysis)).toMatchObject({ selectedOccurrences: [2, 3, 4], consistent: false });
    expect([analysis.result, analysis.reasonCode]).toEqual(["FAILED", "INTERNAL_ERROR"]);
  });

  it("is contradicted by a selected ordinal that was not injected", () => {
    const run = requests(legacyRunBuilder().setup(), 6, [2]);
    const analysis = analyzeSchema1(seed10(1, 6), run.workloadCompleted().events());
    expect(probabilityOf(analysis)).toMatchObject({ selectedOccurrences: [2], consistent: false });
    expect(analysis.reasonCode).toBe("INTERNAL_ERROR");
  });

  it("does not count oversized requests or requests outside the target", () => {
    const run = legacyRunBuilder().setup().observed("op-1", "fp-1").succeeded("op-1");
    run.observed("op-big", "fp-big").failed("op-big", "request_body_too_large", {
      statusCode: 413,
      faultRelated: false,
    });
    run.observed("op-other", "fp-o", { path: "/orders/1" }).succeeded("op-other");
    run.observed("op-delete", "fp-d", { method: "DELETE" }).succeeded("op-delete");
    injectedFailure(run, "op-2", "fp-2");
    const scenario = probabilityScenario({
      probabilityMillionths: 500_000,
      seed: 10n,
      start: 1,
      end: 2,
      target: { method: "GET", path: "/customer/*" },
    });
    const analysis = analyzeSchema1(scenario, run.workloadCompleted().events());
    expect(probabilityOf(analysis)).toMatchObject({
      evaluatedOccurrences: 2,
      selectedOccurrences: [2],
      completed: true,
      consistent: true,
    });
  });
});
