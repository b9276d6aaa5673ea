import { describe, expect, it } from "vitest";
import type { AgentChaosEvent, EventPayload } from "../../src/events/types.js";
import {
  dependencyStarts,
  earliestStarts,
  extendedEntries,
  foundNothingToActOn,
  modelProvider,
} from "../../src/explore/extended-menu.js";
import { applies, defaultMenu, type MenuEntry } from "../../src/explore/menu.js";
import { depthOneCandidates, plannedFault } from "../../src/explore/plan.js";
import type { InjectionPoint } from "../../src/explore/points.js";
import { faultData, scenarioText } from "../../src/explore/scenario-text.js";
import { DEFAULT_CHECKS } from "../../src/scenario/checks.js";
import { parseScenario } from "../../src/scenario/load.js";
import type { Dependency } from "../../src/scenario/types.js";

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
const NOTES: Dependency = {
  name: "notes",
  type: "mcp_stdio",
  command: ["node", "n.mjs"],
  cwd: "/",
  env: {},
};
const DEPENDENCIES = [http("llm"), http("crm"), NOTES];
const dependencyOf = (name: string): Dependency =>
  DEPENDENCIES.find((dependency) => dependency.name === name) as Dependency;

function points(): InjectionPoint[] {
  const list = [
    { dependency: "llm", protocol: "http" as const, method: "POST", path: "/v1/chat/completions", k: 1 },
    { dependency: "crm", protocol: "http" as const, method: "GET", path: "/orders/7", k: 1 },
    { dependency: "notes", protocol: "mcp" as const, method: "initialize", path: "", k: 1 },
    { dependency: "notes", protocol: "mcp" as const, method: "tools/call", path: "search", k: 1 },
    { dependency: "llm", protocol: "http" as const, method: "POST", path: "/v1/chat/completions", k: 2 },
    { dependency: "llm", protocol: "http" as const, method: "POST", path: "/v1/messages", k: 1 },
    { dependency: "llm", protocol: "http" as const, method: "POST", path: "/v1/responses", k: 1 },
  ];
  return list.map((point, index) => ({ ...point, relayedEvents: null, id: `P${index + 1}`, index }));
}

const STARTS = new Map([
  ["llm", 40],
  ["crm", 310],
  ["notes", 12],
]);
const extended = (): MenuEntry[] =>
  extendedEntries({ dependencies: DEPENDENCIES, points: points(), starts: STARTS });

function labelsAt(index: number): string[] {
  const point = points()[index] as InjectionPoint;
  return extended()
    .filter((entry) => applies(entry, point, dependencyOf(point.dependency)))
    .map((entry) => entry.label);
}

function event(elapsed: number, payload: Partial<EventPayload> & { kind: string }): AgentChaosEvent {
  return { elapsed_ms: elapsed, payload } as unknown as AgentChaosEvent;
}

describe("the extended menu's entries per point kind", () => {
  it("a model call's first occurrence: the corruption, the two misbehaving answers of its provider, the outage of its dependency", () => {
    expect(labelsAt(0)).toEqual([
      "http_corrupt first_leaf sinks=stdout+others expect=handle",
      "llm_misbehave provider=openai kind=tool_args_invalid",
      "llm_misbehave provider=openai kind=empty",
      "http_error status_code=503 outage_ms=2000",
    ]);
    expect(labelsAt(4)).toEqual([
      "http_corrupt first_leaf sinks=stdout+others expect=handle",
      "llm_misbehave provider=openai kind=tool_args_invalid",
      "llm_misbehave provider=openai kind=empty",
    ]);
    expect(labelsAt(5)).toEqual([
      "http_corrupt first_leaf sinks=stdout+others expect=handle",
      "llm_misbehave provider=anthropic kind=tool_args_invalid",
      "llm_misbehave provider=anthropic kind=empty",
    ]);
    expect(labelsAt(6)).toContain("llm_misbehave provider=openai_responses kind=empty");
  });

  it("another HTTP point: the corruption, and the outage only on its dependency's first point", () => {
    expect(labelsAt(1)).toEqual([
      "http_corrupt first_leaf sinks=stdout+others expect=handle",
      "http_error status_code=503 outage_ms=2000",
    ]);
  });

  it("an MCP point: only the outage, on the dependency's first point", () => {
    expect(labelsAt(2)).toEqual(["mcp_error code=-32603 outage_ms=2000"]);
    expect(labelsAt(3)).toEqual([]);
  });

  it("names the not-applied reasons that mean a column has nothing to act on at a point", () => {
    const unfit = Object.fromEntries(extended().map((entry) => [entry.label, entry.unfitWhen ?? null]));
    expect(unfit["http_corrupt first_leaf sinks=stdout+others expect=handle"]).toEqual([
      "not_json",
      "pointer_not_found",
    ]);
    expect(unfit["llm_misbehave provider=anthropic kind=empty"]).toEqual(["not_applicable"]);
    expect(unfit["http_error status_code=503 outage_ms=2000"]).toBeNull();
    expect(unfit["mcp_error code=-32603 outage_ms=2000"]).toBeNull();
  });

  it("recognises the model endpoints by exact path", () => {
    const at = (path: string) => modelProvider({ ...(points()[0] as InjectionPoint), path });
    expect(at("/v1/chat/completions")).toBe("openai");
    expect(at("/v1/responses")).toBe("openai_responses");
    expect(at("/v1/messages")).toBe("anthropic");
    expect(at("/v1/chat/completions/x")).toBeNull();
    expect(at("/v1/embeddings")).toBeNull();
  });

  it("leaves the default menu as it was", () => {
    expect(defaultMenu().map((entry) => entry.label)).toEqual([
      "http_error status_code=503",
      "http_rate_limit retry_after_seconds=1",
      "http_disconnect",
      "http_stream_truncate after_events=1",
      "http_stream_reset after_events=1",
      "http_response_lost",
      "mcp_error code=-32603",
      "mcp_disconnect",
      "mcp_tool_error",
    ]);
  });
});

describe("the extended menu's faults as placed", () => {
  const candidates = () =>
    depthOneCandidates(
      points(),
      extended().map((entry, index) => ({ ...entry, id: `X${index + 1}` })),
      dependencyOf,
    );
  const written = (pointIndex: number, type: string) => {
    const found = candidates().find(
      (each) => each.faults[0]?.point.index === pointIndex && each.faults[0]?.entry.fault.type === type,
    );
    return faultData(plannedFault(found?.faults[0] as NonNullable<typeof found>["faults"][0]));
  };

  it("a corruption has no pointer and sinks stdout plus every other dependency", () => {
    expect(written(1, "http_corrupt")).toEqual({
      id: "p2-http-corrupt",
      dependency: "crm",
      type: "http_corrupt",
      target: { method: "GET", path: "/orders/7" },
      trigger: { occurrence: 1 },
      expect: "handle",
      sinks: ["stdout", "llm", "notes"],
    });
  });

  it("an outage targets every request of the dependency from the baseline's first observation for 2 s", () => {
    expect(written(0, "http_error")).toEqual({
      id: "p1-http-error-outage",
      dependency: "llm",
      type: "http_error",
      target: { path: "/*" },
      trigger: { outage: { start_ms: 40, duration_ms: 2000 } },
      status_code: 503,
    });
    expect(written(2, "mcp_error")).toMatchObject({
      id: "p3-mcp-error-outage",
      target: { name: "*" },
      trigger: { outage: { start_ms: 12, duration_ms: 2000 } },
      code: -32603,
    });
  });

  it("every placed fault is written as a scenario that loads back to the same fault", () => {
    for (const candidate of candidates()) {
      const fault = plannedFault(candidate.faults[0] as NonNullable<(typeof candidate.faults)[0]>);
      const scenario = {
        schemaVersion: 2 as const,
        name: "extended",
        dependencies: DEPENDENCIES.map((each, index) =>
          each.type === "http"
            ? { ...each, baseUrl: `http://127.0.0.1:${8080 + index}`, usesPortPlaceholder: false }
            : each,
        ),
        workload: { name: null, command: ["node", "agent.mjs"], cwd: "/work", env: {} },
        faults: [fault],
        recovery: "chain" as const,
        checks: DEFAULT_CHECKS,
        success: { exitCode: 0 },
        timeoutSeconds: 30,
        sourcePath: "/work/scenario.yaml",
      };
      const text = scenarioText(scenario as never, "/work");
      let parsed: ReturnType<typeof parseScenario>;
      try {
        parsed = parseScenario(new TextEncoder().encode(text), "/work/replay.yaml");
      } catch (error) {
        throw new Error(`${text}\n${JSON.stringify((error as { problems?: unknown }).problems)}`);
      }
      if (parsed.schemaVersion !== 2) throw new Error("expected schema 2");
      expect(parsed.faults).toEqual([fault]);
    }
  });

  it("a misbehaving model keeps the point's target and occurrence", () => {
    expect(written(4, "llm_misbehave")).toMatchObject({
      target: { method: "POST", path: "/v1/chat/completions" },
      trigger: { occurrence: 2 },
      provider: "openai",
      kind: "tool_args_invalid",
    });
  });
});

describe("the evidence the extended menu reads", () => {
  it("dependency starts: ms from WORKLOAD_STARTED to each dependency's first observation, earliest over the runs", () => {
    const run = [
      event(5, { kind: "RUN_STARTED" }),
      event(100, { kind: "WORKLOAD_STARTED" }),
      event(140, { kind: "OPERATION_OBSERVED", dependency: "llm" }),
      event(150, { kind: "OPERATION_OBSERVED", dependency: "crm" }),
      event(900, { kind: "OPERATION_OBSERVED", dependency: "llm" }),
    ];
    expect(dependencyStarts(run)).toEqual(
      new Map([
        ["llm", 40],
        ["crm", 50],
      ]),
    );
    expect(
      earliestStarts([
        new Map([
          ["llm", 40],
          ["crm", 50],
        ]),
        new Map([["llm", 35]]),
      ]),
    ).toEqual(
      new Map([
        ["llm", 35],
        ["crm", 50],
      ]),
    );
  });

  it("nothing to act on: only the entry's FAULT_NOT_APPLIED reasons, never a replaced value", () => {
    const injected = (canary: string | null) =>
      event(1, { kind: "FAULT_INJECTED", canary_type: canary } as never);
    const notApplied = (reason: string) => event(2, { kind: "FAULT_NOT_APPLIED", reason } as never);
    const corruption = ["not_json", "pointer_not_found"] as const;
    expect(foundNothingToActOn([injected(null), notApplied("not_json")], corruption)).toBe(true);
    expect(foundNothingToActOn([injected(null), notApplied("pointer_not_found")], corruption)).toBe(true);
    expect(foundNothingToActOn([injected(null), notApplied("upstream_failed")], corruption)).toBe(false);
    expect(foundNothingToActOn([injected("number")], corruption)).toBe(false);
    expect(foundNothingToActOn([], corruption)).toBe(false);
    expect(foundNothingToActOn([notApplied("not_applicable")], ["not_applicable"])).toBe(true);
    expect(foundNothingToActOn([notApplied("not_applicable")], corruption)).toBe(false);
  });
});
