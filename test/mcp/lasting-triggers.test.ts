import { describe, expect, it } from "vitest";
import { startMcpHttpProxy } from "../../src/mcp/http/proxy.js";
import type { Fault } from "../../src/scenario/types.js";
import type { TriggerClock } from "../../src/triggers/index.js";
import { PayloadLog } from "../helpers/mcp.js";
import { connectHttpClient, startHttpMcpServer } from "../helpers/mcp-http.js";
import { onCleanup } from "../helpers/proxy-harness.js";

function rpcError(trigger: Fault["trigger"]): Fault {
  return {
    id: "busy",
    dependency: "tools",
    type: "mcp_error",
    code: -32000,
    expect: "handle",
    target: { kind: "mcp", method: "tools/call", name: "echo" },
    trigger,
  };
}

async function proxied(fault: Fault, clock: TriggerClock) {
  const server = await startHttpMcpServer(true);
  const log = new PayloadLog();
  const proxy = await startMcpHttpProxy({
    upstreamBaseUrl: server.url,
    dependency: "tools",
    faults: [fault],
    sink: log,
    triggerClock: clock,
  });
  onCleanup(() => proxy.close());
  return { proxy, log };
}

describe("outages and quotas on MCP operations", () => {
  it("lets exactly the quota of concurrent tool calls through and fails the rest", async () => {
    const frozen: TriggerClock = { now: () => 0, observedAt: () => 0, workloadStartedAt: () => 0 };
    const { proxy, log } = await proxied(
      rpcError({ kind: "quota", unit: "requests", limit: 3, perMs: 60_000 }),
      frozen,
    );
    const client = await connectHttpClient(proxy.url);
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.callTool({ name: "echo", arguments: { text: `call ${i}` } }).then(
          () => "ok",
          () => "error",
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(3);
    expect(log.ofKind("FAULT_INJECTED")).toHaveLength(9);
    await client.close();
  });

  it("fails the tool calls observed inside the outage only", async () => {
    let now = 0;
    const clock: TriggerClock = { now: () => now, observedAt: () => now, workloadStartedAt: () => 0 };
    const { proxy, log } = await proxied(rpcError({ kind: "outage", startMs: 100, durationMs: 50 }), clock);
    const client = await connectHttpClient(proxy.url);
    const outcomes: string[] = [];
    for (const at of [0, 100, 149, 150]) {
      now = at;
      outcomes.push(
        await client.callTool({ name: "echo", arguments: { text: `at ${at}` } }).then(
          () => "ok",
          () => "error",
        ),
      );
    }
    expect(outcomes).toEqual(["ok", "error", "error", "ok"]);
    expect(log.ofKind("FAULT_INJECTED")).toHaveLength(2);
    await client.close();
  });
});
