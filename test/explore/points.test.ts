import { describe, expect, it } from "vitest";
import { observedPoints, operationCounts, pointLabel, stablePoints } from "../../src/explore/points.js";
import { runBuilder } from "../helpers/events.js";

const LLM = { dependency: "llm", method: "POST", path: "/v1/chat/completions" } as const;
const CRM = { dependency: "crm", method: "GET", path: "/customer/42" } as const;

/** model, tool, model, tool (other path), tool (same path again), model — over two dependencies. */
function agentRun(options: { streamed?: number | null; extra?: boolean } = {}) {
  const run = runBuilder().setup(["llm", "crm"]);
  const op = (
    id: string,
    fingerprint: string,
    observed: Parameters<typeof run.observed>[2],
    relayed: number | null = null,
  ) => run.observed(id, fingerprint, observed).succeeded(id, { relayedEvents: relayed });
  op("op-1", "fp-1", LLM);
  op("op-2", "fp-2", CRM);
  op("op-3", "fp-3", LLM);
  op("op-4", "fp-4", { dependency: "crm", method: "get", path: "/orders/7" });
  op("op-5", "fp-2", CRM);
  op("op-6", "fp-5", LLM, options.streamed ?? null);
  if (options.extra === true) op("op-7", "fp-6", { dependency: "crm", method: "GET", path: "/audit" });
  return run.workloadCompleted().events();
}

describe("injection points", () => {
  it("number repeated paths per dependency, method and path, in observation order", () => {
    const points = observedPoints(agentRun());
    expect(points.map(pointLabel)).toEqual([
      "llm POST /v1/chat/completions #1",
      "crm GET /customer/42 #1",
      "llm POST /v1/chat/completions #2",
      "crm GET /orders/7 #1",
      "crm GET /customer/42 #2",
      "llm POST /v1/chat/completions #3",
    ]);
  });

  it("upper-case HTTP methods, as targets compare them case-insensitively", () => {
    const points = observedPoints(agentRun());
    expect(points[3]).toMatchObject({
      dependency: "crm",
      protocol: "http",
      method: "GET",
      path: "/orders/7",
      k: 1,
    });
  });

  it("carry the relayed events of an event stream, and null for other responses", () => {
    const points = observedPoints(agentRun({ streamed: 12 }));
    expect(points.map((point) => point.relayedEvents)).toEqual([null, null, null, null, null, 12]);
  });

  it("keep MCP method and name as sent, and count retries as operations of their own", () => {
    const events = runBuilder()
      .setup(["notes"])
      .observed("op-1", "fp-1", { dependency: "notes", protocol: "mcp", method: "initialize", path: "" })
      .succeeded("op-1", { statusCode: null })
      .observed("op-2", "fp-2", {
        dependency: "notes",
        protocol: "mcp",
        method: "tools/call",
        path: "search",
      })
      .failed("op-2", "rpc_error", { statusCode: null })
      .observed("op-3", "fp-2", {
        dependency: "notes",
        protocol: "mcp",
        method: "tools/call",
        path: "search",
      })
      .retry("op-3", "op-2")
      .succeeded("op-3", { statusCode: null })
      .workloadCompleted()
      .events();
    expect(observedPoints(events).map(pointLabel)).toEqual([
      "notes initialize #1",
      "notes tools/call search #1",
      "notes tools/call search #2",
    ]);
  });

  it("are stable when every baseline run observed them, in the first run's order", () => {
    const { points, skipped } = stablePoints([observedPoints(agentRun()), observedPoints(agentRun())]);
    expect(points.map((point) => `${point.id} ${pointLabel(point)}`)).toEqual([
      "P1 llm POST /v1/chat/completions #1",
      "P2 crm GET /customer/42 #1",
      "P3 llm POST /v1/chat/completions #2",
      "P4 crm GET /orders/7 #1",
      "P5 crm GET /customer/42 #2",
      "P6 llm POST /v1/chat/completions #3",
    ]);
    expect(points.map((point) => point.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(skipped).toEqual([]);
  });

  it("seen in only some baseline runs are listed as unstable and skipped", () => {
    const { points, skipped } = stablePoints([
      observedPoints(agentRun()),
      observedPoints(agentRun({ extra: true })),
      observedPoints(agentRun()),
    ]);
    expect(points).toHaveLength(6);
    expect(skipped).toEqual([
      expect.objectContaining({ dependency: "crm", path: "/audit", k: 1, reason: "unstable", seenInRuns: 1 }),
    ]);
  });

  it("count as an event stream only when every baseline run streamed, with the fewest events", () => {
    const streamed = stablePoints([
      observedPoints(agentRun({ streamed: 9 })),
      observedPoints(agentRun({ streamed: 4 })),
    ]);
    expect(streamed.points[5]?.relayedEvents).toBe(4);
    const mixed = stablePoints([observedPoints(agentRun({ streamed: 9 })), observedPoints(agentRun())]);
    expect(mixed.points[5]?.relayedEvents).toBeNull();
  });

  it("whose path a target cannot name exactly are skipped as untargetable", () => {
    const events = runBuilder()
      .setup(["api"])
      .observed("op-1", "fp-1", { dependency: "api", method: "GET", path: "/files/*" })
      .succeeded("op-1")
      .observed("op-2", "fp-2", { dependency: "api", method: "GET", path: "/files/a" })
      .succeeded("op-2")
      .workloadCompleted()
      .events();
    const { points, skipped } = stablePoints([observedPoints(events)]);
    expect(points.map(pointLabel)).toEqual(["api GET /files/a #1"]);
    expect(skipped).toEqual([
      expect.objectContaining({ path: "/files/*", reason: "untargetable", seenInRuns: 1 }),
    ]);
  });

  it("give the operation counts a trigger counter sees, per dependency, method and path", () => {
    const counts = operationCounts(observedPoints(agentRun()));
    expect([...counts.values()]).toEqual([3, 2, 1]);
  });
});
