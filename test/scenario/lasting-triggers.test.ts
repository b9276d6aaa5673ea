import { describe, expect, it } from "vitest";
import { edited, parseScenarioData, problemMessages, textOf } from "./scenario-data.js";
import { problems } from "./scenario-text.js";

function withTrigger(trigger: unknown, more: Record<string, unknown> = {}) {
  return edited((data) => {
    const faults = data.faults as Record<string, unknown>[];
    faults[0] = { ...(faults[0] as object), trigger, ...more };
  });
}

function rateLimit(trigger: unknown, retryAfter: unknown) {
  return edited((data) => {
    data.faults = [
      {
        dependency: "llm",
        type: "http_rate_limit",
        target: { path: "/v1/*" },
        trigger,
        retry_after_seconds: retryAfter,
      },
    ];
  });
}

describe("schema 2: outage and quota triggers", () => {
  it("loads an outage as a start and a duration in milliseconds", () => {
    const scenario = parseScenarioData(withTrigger({ outage: { start_ms: 2000, duration_ms: 3000 } }));
    expect(scenario.faults[0]?.trigger).toEqual({ kind: "outage", startMs: 2000, durationMs: 3000 });
  });

  it("loads a request quota and a token quota", () => {
    expect(
      parseScenarioData(withTrigger({ quota: { requests: 3, per_ms: 10000 } })).faults[0]?.trigger,
    ).toEqual({
      kind: "quota",
      unit: "requests",
      limit: 3,
      perMs: 10000,
    });
    expect(
      parseScenarioData(withTrigger({ quota: { tokens: 2000, per_ms: 60000 } })).faults[0]?.trigger,
    ).toEqual({
      kind: "quota",
      unit: "tokens",
      limit: 2000,
      perMs: 60000,
    });
  });

  it("points at a bad outage key", () => {
    expect(problemMessages(withTrigger({ outage: { start_ms: -1, duration_ms: 0 } }))).toEqual([
      "faults[0].trigger.outage.start_ms: expected an integer of at least 0, got the integer -1",
      "faults[0].trigger.outage.duration_ms: expected a positive integer, got the integer 0",
    ]);
    expect(problemMessages(withTrigger({ outage: { start_ms: 0 } }))).toEqual([
      "faults[0].trigger.outage.duration_ms: missing; expected a positive integer",
    ]);
  });

  it("wants exactly one of requests and tokens in a quota", () => {
    expect(problemMessages(withTrigger({ quota: { requests: 3, tokens: 10, per_ms: 1000 } }))).toEqual([
      "faults[0].trigger.quota: expected exactly one of requests and tokens, got requests and tokens",
    ]);
    expect(problemMessages(withTrigger({ quota: { per_ms: 1000 } }))).toEqual([
      "faults[0].trigger.quota: expected exactly one of requests and tokens, got none",
    ]);
    expect(problemMessages(withTrigger({ quota: { requests: 3, per_ms: 0 } }))).toEqual([
      "faults[0].trigger.quota.per_ms: expected a positive integer, got the integer 0",
    ]);
  });

  it("refuses an outage together with another form", () => {
    expect(problemMessages(withTrigger({ occurrence: 1, outage: { start_ms: 0, duration_ms: 10 } }))).toEqual(
      [
        "faults[0].trigger: expected exactly one of occurrence, occurrences, probability with seed and window, outage or quota, got occurrence and outage",
      ],
    );
  });

  it("accepts retry_after_seconds auto under a quota only, with the line of the key", () => {
    const auto = parseScenarioData(rateLimit({ quota: { requests: 3, per_ms: 10000 } }, "auto")).faults[0];
    expect(auto).toMatchObject({ type: "http_rate_limit", retryAfterSeconds: "auto" });
    const found = problems(textOf(rateLimit({ occurrence: 1 }, "auto")));
    expect(found.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      'faults[0].retry_after_seconds: expected an integer of at least 0 ("auto" needs a quota trigger)',
    ]);
    expect(found[0]?.line).toBeGreaterThan(0);
    expect(problemMessages(rateLimit({ occurrence: 1 }, "soon"))).toEqual([
      'faults[0].retry_after_seconds: expected an integer of at least 0 or "auto", got a string',
    ]);
  });
});
