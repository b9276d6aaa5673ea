import { describe, expect, it } from "vitest";
import { defaultMenu } from "../../src/explore/menu.js";
import {
  type Candidate,
  depthOneCandidates,
  depthTwoCandidates,
  experimentScenario,
  type PassedSingle,
} from "../../src/explore/plan.js";
import { type InjectionPoint, operationKey } from "../../src/explore/points.js";
import { seededSample } from "../../src/explore/sample.js";
import { DEFAULT_CHECKS } from "../../src/scenario/checks.js";
import type { Dependency, Scenario } from "../../src/scenario/types.js";

const http = (name: string): Dependency => ({
  name,
  type: "http",
  baseUrl: "http://127.0.0.1:{port}",
  start: null,
  urlEnv: null,
  protocol: "http",
  ignoreJsonFields: [],
  usesPortPlaceholder: true,
});
const DEPENDENCIES = [http("llm"), http("crm")];
const dependencyOf = (name: string): Dependency =>
  DEPENDENCIES.find((dependency) => dependency.name === name) as Dependency;

function points(): InjectionPoint[] {
  const list = [
    { dependency: "llm", method: "POST", path: "/v1/chat/completions", k: 1 },
    { dependency: "crm", method: "GET", path: "/orders/7", k: 1 },
    { dependency: "crm", method: "GET", path: "/orders/7", k: 2 },
  ];
  return list.map((point, index) => ({
    ...point,
    protocol: "http" as const,
    relayedEvents: null,
    id: `P${index + 1}`,
    index,
  }));
}

/** The three-column default menu of HTTP reads (a 503, a 429, a dropped connection). */
function menu() {
  return defaultMenu()
    .filter((entry) => entry.scope === "http_points")
    .map((entry, index) => ({ ...entry, id: `M${index + 1}` }));
}

const BASELINE_COUNTS = new Map([
  [operationKey({ dependency: "llm", protocol: "http", method: "POST", path: "/v1/chat/completions" }), 1],
  [operationKey({ dependency: "crm", protocol: "http", method: "GET", path: "/orders/7" }), 2],
]);

function passed(candidate: Candidate, extra: Record<string, number> = {}): PassedSingle {
  const counts = new Map(BASELINE_COUNTS);
  for (const [key, more] of Object.entries(extra)) counts.set(key, (counts.get(key) ?? 0) + more);
  return { candidate, counts };
}

const ORDERS = operationKey({ dependency: "crm", protocol: "http", method: "GET", path: "/orders/7" });

describe("depth 1", () => {
  it("is every point with every menu fault that applies to it, point by point", () => {
    const keys = depthOneCandidates(points(), menu(), dependencyOf).map((candidate) => candidate.key);
    expect(keys).toEqual([
      "llm POST /v1/chat/completions #1 | http_error status_code=503",
      "llm POST /v1/chat/completions #1 | http_rate_limit retry_after_seconds=1",
      "llm POST /v1/chat/completions #1 | http_disconnect",
      "crm GET /orders/7 #1 | http_error status_code=503",
      "crm GET /orders/7 #1 | http_rate_limit retry_after_seconds=1",
      "crm GET /orders/7 #1 | http_disconnect",
      "crm GET /orders/7 #2 | http_error status_code=503",
      "crm GET /orders/7 #2 | http_rate_limit retry_after_seconds=1",
      "crm GET /orders/7 #2 | http_disconnect",
    ]);
  });

  it("builds a scenario with exactly that fault on the point's method, exact path and occurrence", () => {
    const [, , , , , , third] = depthOneCandidates(points(), menu(), dependencyOf);
    const base: Scenario = {
      schemaVersion: 2,
      name: "agent",
      dependencies: DEPENDENCIES,
      workload: { name: null, command: ["node", "agent.mjs"], cwd: "/", env: {} },
      faults: [],
      recovery: "chain",
      checks: DEFAULT_CHECKS,
      success: { exitCode: 0 },
      timeoutSeconds: 30,
      sourcePath: "/agent.yaml",
    };
    const scenario = experimentScenario(base, third as Candidate);
    expect(scenario.faults).toEqual([
      {
        type: "http_error",
        id: "p3-http-error",
        dependency: "crm",
        target: { kind: "http", method: "GET", path: "/orders/7" },
        trigger: { kind: "occurrence_schedule", occurrences: [2] },
        expect: "recover",
        statusCode: 503,
      },
    ]);
    expect({ ...scenario, faults: [] }).toEqual(base);
  });
});

describe("depth 2", () => {
  const singles = depthOneCandidates(points(), menu(), dependencyOf);
  const at = (key: string): Candidate => singles.find((candidate) => candidate.key === key) as Candidate;
  const llm503 = at("llm POST /v1/chat/completions #1 | http_error status_code=503");
  const first429 = at("crm GET /orders/7 #1 | http_rate_limit retry_after_seconds=1");
  const second503 = at("crm GET /orders/7 #2 | http_error status_code=503");

  it("pairs only experiments that passed or recovered, the first point before the second", () => {
    const pairs = depthTwoCandidates([passed(llm503), passed(first429), passed(second503)], BASELINE_COUNTS);
    expect(pairs.map((pair) => pair.key)).toEqual([
      "llm POST /v1/chat/completions #1 | http_error status_code=503 + crm GET /orders/7 #1 | http_rate_limit retry_after_seconds=1",
      "llm POST /v1/chat/completions #1 | http_error status_code=503 + crm GET /orders/7 #2 | http_error status_code=503",
      "crm GET /orders/7 #1 | http_rate_limit retry_after_seconds=1 + crm GET /orders/7 #2 | http_error status_code=503",
    ]);
    expect(pairs.every((pair) => pair.depth === 2 && pair.faults.length === 2)).toBe(true);
    // A failed single (left out of the list) never takes part.
    const withoutFirst = depthTwoCandidates([passed(llm503), passed(second503)], BASELINE_COUNTS);
    expect(withoutFirst.map((pair) => pair.key)).toEqual([
      "llm POST /v1/chat/completions #1 | http_error status_code=503 + crm GET /orders/7 #2 | http_error status_code=503",
    ]);
  });

  it("never pairs two faults on the same point, nor a point with an earlier one", () => {
    const sameRow = singles.filter((candidate) => candidate.faults[0]?.point.id === "P2");
    expect(
      depthTwoCandidates(
        sameRow.map((candidate) => passed(candidate)),
        BASELINE_COUNTS,
      ),
    ).toEqual([]);
    const reversed = depthTwoCandidates([passed(second503), passed(llm503)], BASELINE_COUNTS);
    expect(reversed.map((pair) => pair.faults.map((fault) => fault.point.id))).toEqual([["P1", "P3"]]);
  });

  it("moves the second fault past the first one's retries of the same method and path", () => {
    const [pair] = depthTwoCandidates(
      [passed(first429, { [ORDERS]: 1 }), passed(second503)],
      BASELINE_COUNTS,
    );
    expect(pair?.faults.map((fault) => fault.occurrence)).toEqual([1, 3]);
  });

  it("drops a pair whose second point the first experiment no longer reached", () => {
    const shortRun: PassedSingle = { candidate: first429, counts: new Map([[ORDERS, 1]]) };
    expect(depthTwoCandidates([shortRun, passed(second503)], BASELINE_COUNTS)).toEqual([]);
  });
});

describe("the seeded sample over budget", () => {
  const items = Array.from({ length: 40 }, (_, index) => `experiment ${index}`);
  const sample = (seed: number, budget = 10) => seededSample(items, budget, seed, (item) => item);

  it("is the same for the same seed, in the candidates' order", () => {
    expect(sample(7)).toEqual(sample(7));
    expect(sample(7)).toHaveLength(10);
    expect([...sample(7)].sort((a, b) => items.indexOf(a) - items.indexOf(b))).toEqual(sample(7));
  });

  it("differs between seeds", () => {
    expect(sample(7)).not.toEqual(sample(8));
  });

  it("keeps a candidate's chance whatever the other candidates are", () => {
    const chosen = sample(7);
    const fewer = seededSample(
      items.filter((item) => chosen.includes(item) || items.indexOf(item) % 2 === 0),
      10,
      7,
      (item) => item,
    );
    expect(fewer).toEqual(chosen);
  });

  it("takes everything within budget", () => {
    expect(sample(1, 40)).toEqual(items);
    expect(sample(1, 100)).toEqual(items);
  });
});
