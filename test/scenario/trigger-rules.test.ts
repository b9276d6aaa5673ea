import { describe, expect, it } from "vitest";
import type { OccurrenceTrigger, SeededProbabilityTrigger } from "../../src/scenario/types.js";
import { faultText, parse, problemPaths, problems, scenarioText } from "./scenario-text.js";

const withTrigger = (lines: string): string =>
  scenarioText({ fault: faultText("http_error", { trigger: lines, own: "  status_code: 503" }) });

const triggerOf = (lines: string): OccurrenceTrigger | undefined => parse(withTrigger(lines)).fault?.trigger;

const probabilityTrigger = (
  probability: string,
  seed = "10",
  window = "{start_occurrence: 1, end_occurrence: 5}",
) => `    probability: ${probability}\n    seed: ${seed}\n    window: ${window}`;

describe("occurrence triggers", () => {
  it("turns `occurrence: N` into the schedule [N]", () => {
    expect(triggerOf("    occurrence: 3")).toEqual({ kind: "occurrence_schedule", occurrences: [3] });
  });

  it.each(["0", "-1", "1.5", "true", '"2"'])("rejects occurrence %s", (value) => {
    expect(problemPaths(withTrigger(`    occurrence: ${value}`))).toEqual(["fault.trigger.occurrence"]);
  });

  it.each([
    ["[1]", [1]],
    ["[2, 4]", [2, 4]],
    ["[1, 2, 10]", [1, 2, 10]],
  ])("accepts occurrences %s", (list, expected) => {
    expect(triggerOf(`    occurrences: ${list}`)).toEqual({
      kind: "occurrence_schedule",
      occurrences: expected,
    });
  });

  it.each([
    ["[2, 2]", "fault.trigger.occurrences[1]"],
    ["[3, 2]", "fault.trigger.occurrences[1]"],
    ["[0]", "fault.trigger.occurrences[0]"],
    ["[-1]", "fault.trigger.occurrences[0]"],
    ["[]", "fault.trigger.occurrences"],
    ["[true]", "fault.trigger.occurrences[0]"],
    ["[1.5]", "fault.trigger.occurrences[0]"],
    ['["1"]', "fault.trigger.occurrences[0]"],
    ["2", "fault.trigger.occurrences"],
  ])("rejects occurrences %s at %s", (list, path) => {
    expect(problemPaths(withTrigger(`    occurrences: ${list}`))).toEqual([path]);
  });
});

describe("seeded probability triggers", () => {
  it("keeps the probability and its exact millionths, the seed as a BigInt and the window", () => {
    expect(triggerOf(probabilityTrigger("0.5"))).toEqual<SeededProbabilityTrigger>({
      kind: "seeded_probability",
      probability: 0.5,
      probabilityMillionths: 500_000,
      seed: 10n,
      window: { startOccurrence: 1, endOccurrence: 5 },
    });
  });

  it.each([
    ["0.000001", 1],
    ["1", 1_000_000],
    ["1.0", 1_000_000],
    ["0.999999", 999_999],
    ["0.1", 100_000],
    ["0.29", 290_000],
    ["0.000249", 249],
    [".5", 500_000],
    ["5e-1", 500_000],
    ["1e-6", 1],
  ])("accepts probability %s as %d millionths", (written, millionths) => {
    expect(triggerOf(probabilityTrigger(written))).toMatchObject({ probabilityMillionths: millionths });
  });

  it.each([
    "0.1234567",
    "0.5000000",
    "0",
    "0.0",
    "1.000001",
    "2",
    "-0.5",
    ".nan",
    ".inf",
    "true",
    '"0.5"',
    "'0.5'",
    "null",
  ])("rejects probability %s", (written) => {
    expect(problemPaths(withTrigger(probabilityTrigger(written)))).toEqual(["fault.trigger.probability"]);
  });

  it("says the six-decimal rule is judged on the digits as written", () => {
    expect(problems(withTrigger(probabilityTrigger("0.1234567")))[0]?.message).toContain("7 decimal places");
  });

  it.each([
    ["0", 0n],
    ["18446744073709551615", 18446744073709551615n],
    ["9007199254740993", 9007199254740993n],
  ])("keeps seed %s exactly", (written, seed) => {
    expect(triggerOf(probabilityTrigger("0.5", written))).toMatchObject({ seed });
  });

  it.each(["18446744073709551616", "-1", "1.5", '"10"', "true", "1e3"])("rejects seed %s", (written) => {
    expect(problemPaths(withTrigger(probabilityTrigger("0.5", written)))).toEqual(["fault.trigger.seed"]);
  });

  it("accepts a window of one occurrence and rejects start after end", () => {
    expect(
      triggerOf(probabilityTrigger("0.5", "1", "{start_occurrence: 3, end_occurrence: 3}")),
    ).toMatchObject({
      window: { startOccurrence: 3, endOccurrence: 3 },
    });
    const text = withTrigger(probabilityTrigger("0.5", "1", "{start_occurrence: 4, end_occurrence: 3}"));
    expect(problemPaths(text)).toEqual(["fault.trigger.window.end_occurrence"]);
  });

  it.each([
    ["{start_occurrence: 0, end_occurrence: 3}", "fault.trigger.window.start_occurrence"],
    ["{start_occurrence: 1, end_occurrence: 2.5}", "fault.trigger.window.end_occurrence"],
    ["{start_occurrence: 1}", "fault.trigger.window.end_occurrence"],
    ["{start_occurrence: 1, end_occurrence: 2, size: 2}", "fault.trigger.window.size"],
    ["[1, 5]", "fault.trigger.window"],
  ])("rejects the window %s", (window, path) => {
    expect(problemPaths(withTrigger(probabilityTrigger("0.5", "1", window)))).toEqual([path]);
  });

  it("requires all of probability, seed and window", () => {
    expect(problemPaths(withTrigger("    probability: 0.5\n    seed: 1"))).toEqual(["fault.trigger.window"]);
    expect(
      problemPaths(withTrigger("    seed: 1\n    window: {start_occurrence: 1, end_occurrence: 2}")),
    ).toEqual(["fault.trigger.probability"]);
  });
});

describe("trigger forms", () => {
  it.each([
    ["occurrence and occurrences", "    occurrence: 1\n    occurrences: [2]"],
    ["occurrence and probability", `    occurrence: 1\n${probabilityTrigger("0.5")}`],
    ["occurrences and probability", `    occurrences: [1]\n${probabilityTrigger("0.5")}`],
    ["occurrence and a lone seed", "    occurrence: 1\n    seed: 3"],
  ])("rejects mixing %s", (_, lines) => {
    expect(problemPaths(withTrigger(lines))).toEqual(["fault.trigger"]);
  });

  it("rejects a trigger with no form and an unknown trigger key", () => {
    expect(problemPaths(withTrigger("    {}"))).toEqual(["fault.trigger"]);
    expect(problemPaths(withTrigger("    occurrence: 1\n    every: 2"))).toEqual(["fault.trigger.every"]);
  });
});
