import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { eventually } from "../helpers/eventually.js";
import {
  mcpFaults,
  occurrences,
  spawnRawShim,
  startScriptedHost,
  tool,
  toolCallLine,
} from "../helpers/mcp.js";

describe("synthetic answers over stdio", () => {
  it("answers mcp_error and mcp_tool_error with exact bytes and the original number and string ids", async () => {
    const test = await startScriptedHost([
      mcpFaults.error("rpc", tool("lookup"), occurrences(1)),
      mcpFaults.error("rpc-code", tool("lookup"), occurrences(2), -32001),
      mcpFaults.toolError("tool", tool("search"), occurrences(1, 2)),
    ]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("7", "lookup"));
    shim.write(toolCallLine('"req-\\u0041"', "lookup"));
    shim.write(toolCallLine("1.0", "search"));
    shim.write(toolCallLine('"s"', "search"));
    shim.write(toolCallLine("12345678901234567890", "lookup"));
    const lines = await shim.lines(5);
    expect(lines).toEqual([
      '{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Injected by Agent Chaos"}}',
      '{"jsonrpc":"2.0","id":"req-\\u0041","error":{"code":-32001,"message":"Injected by Agent Chaos"}}',
      '{"jsonrpc":"2.0","id":1.0,"result":{"content":[{"type":"text","text":"Injected by Agent Chaos"}],"isError":true}}',
      '{"jsonrpc":"2.0","id":"s","result":{"content":[{"type":"text","text":"Injected by Agent Chaos"}],"isError":true}}',
      '{"jsonrpc":"2.0","id":12345678901234567890,"result":{"echo":"tools/call"}}',
    ]);
    // Only the unfaulted request reached the server.
    expect(test.received()).toEqual([toolCallLine("12345678901234567890", "lookup").trimEnd()]);
    const failed = test.log.ofKind("OPERATION_FAILED");
    expect(
      failed.map((event) => [
        event.failure_kind,
        event.rpc_error_code,
        event.status_code,
        event.fault_related,
      ]),
    ).toEqual([
      ["injected_rpc_error", -32603, null, true],
      ["injected_rpc_error", -32001, null, true],
      ["injected_tool_error", null, null, true],
      ["injected_tool_error", null, null, true],
    ]);
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => [event.fault_id, event.parameters])).toEqual([
      ["rpc", { code: -32603 }],
      ["rpc-code", { code: -32001 }],
      ["tool", {}],
      ["tool", {}],
    ]);
  });

  it("withholds an mcp_no_response request for good; a later cancellation adds nothing", async () => {
    const test = await startScriptedHost([
      mcpFaults.noResponse("silent", tool(null, "tools/list"), occurrences(1)),
    ]);
    const shim = spawnRawShim(test);
    shim.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    shim.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n');
    shim.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    expect(await shim.lines(1)).toEqual(['{"jsonrpc":"2.0","id":2,"result":{"echo":"tools/list"}}']);
    expect(test.received()).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    ]);
    const [first, second] = test.log.operations("tools/list");
    expect(test.log.kindsOf(first as string)).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_FAILED",
    ]);
    expect(test.log.terminal(first as string)).toMatchObject({
      failure_kind: "injected_no_response",
      fault_related: true,
    });
    expect(test.log.kindsOf(second as string)).toEqual([
      "OPERATION_OBSERVED",
      "RETRY_OBSERVED",
      "OPERATION_SUCCEEDED",
    ]);
  });

  it("mcp_disconnect stops the server and closes the agent's pipes; other open requests end connection_closed", async () => {
    const test = await startScriptedHost([
      mcpFaults.latency("held", tool("held"), occurrences(1), 60_000),
      mcpFaults.disconnect("cut", tool("cut"), occurrences(1)),
    ]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("1", "held"));
    shim.write(toolCallLine("2", "echo"));
    await shim.lines(1);
    const started = test.log.ofKind("SESSION_STARTED")[0];
    shim.write(toolCallLine("3", "cut"));
    expect(await shim.exited).toBe(1);
    expect(shim.output()).toBe('{"jsonrpc":"2.0","id":2,"result":{"echo":"tools/call"}}\n');
    expect(processAlive(started?.pid as number)).toBe(false);
    await test.host.close();
    const cut = test.log.operations("tools/call", "cut")[0] as string;
    const held = test.log.operations("tools/call", "held")[0] as string;
    expect(test.log.terminal(cut)).toMatchObject({
      failure_kind: "injected_disconnect",
      fault_related: true,
    });
    expect(test.log.terminal(held)).toMatchObject({ failure_kind: "connection_closed", fault_related: true });
    expect(test.log.payloads.at(-1)).toMatchObject({ kind: "SESSION_ENDED", session: 1 });
    expect(shim.errors()).toBe("");
  });

  it("mcp_latency forwards at once and hands the answer over latency_ms after it arrives", async () => {
    const test = await startScriptedHost([mcpFaults.latency("slow", tool("lookup"), occurrences(1), 300)]);
    const shim = spawnRawShim(test);
    const sent = Date.now();
    shim.write(toolCallLine("1", "lookup"));
    shim.write(toolCallLine("2", "other"));
    // The other request's answer overtakes the delayed one.
    const first = await shim.lines(1);
    expect(first).toEqual(['{"jsonrpc":"2.0","id":2,"result":{"echo":"tools/call"}}']);
    expect(test.received()).toHaveLength(2);
    const both = await shim.lines(2);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(290);
    expect(both[1]).toBe('{"jsonrpc":"2.0","id":1,"result":{"echo":"tools/call"}}');
    const delayed = test.log.operations("tools/call", "lookup")[0] as string;
    expect(test.log.kindsOf(delayed)).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_SUCCEEDED",
    ]);
    expect(test.log.terminal(delayed)).toMatchObject({ fault_related: true, status_code: null });
    expect(test.log.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ latency_ms: 300 });
  });

  it("a same-params request during an mcp_latency wait abandons the waiting one as client_timeout_inferred", async () => {
    const test = await startScriptedHost([mcpFaults.latency("slow", tool("lookup"), occurrences(1), 400)]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("1", "lookup", '{"q":"a"}'));
    shim.write(toolCallLine("2", "lookup", '{"q":"a"}'));
    const lines = await shim.lines(2);
    expect(lines).toEqual([
      '{"jsonrpc":"2.0","id":2,"result":{"echo":"tools/call"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"echo":"tools/call"}}',
    ]);
    const [first, retry] = test.log.operations("tools/call", "lookup") as [string, string];
    expect(test.log.terminal(first)).toMatchObject({
      failure_kind: "client_timeout_inferred",
      fault_related: true,
    });
    expect(test.log.kindsOf(retry)).toEqual(["OPERATION_OBSERVED", "RETRY_OBSERVED", "OPERATION_SUCCEEDED"]);
    expect(test.log.kindsOf(first).filter((kind) => kind.startsWith("OPERATION_"))).toHaveLength(2);
  });

  it("relays malformed lines from either side unchanged and counts them", async () => {
    const test = await startScriptedHost([]);
    const shim = spawnRawShim(test);
    shim.write("not json at all\n");
    shim.write('{"id":1,"method":"no jsonrpc member"}\n');
    shim.write('{"jsonrpc":"2.0","id":1,"method":"noise"}\n');
    expect(await shim.lines(2)).toEqual([
      "server noise, not json-rpc",
      '{"jsonrpc":"2.0","id":1,"result":{"echo":"noise"}}',
    ]);
    expect(test.received()).toEqual([
      "not json at all",
      '{"id":1,"method":"no jsonrpc member"}',
      '{"jsonrpc":"2.0","id":1,"method":"noise"}',
    ]);
    expect(test.host.diagnostics()).toEqual({ malformedMessages: 3 });
    expect(test.log.operations("noise")).toHaveLength(1);
  });

  it("a shim killed outright: its open requests end connection_closed and the run stops its server", async () => {
    const test = await startScriptedHost([mcpFaults.latency("held", tool("held"), occurrences(1), 60_000)]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("1", "held"));
    await eventually(() => test.log.ofKind("FAULT_INJECTED").length === 1);
    const pid = test.log.ofKind("SESSION_STARTED")[0]?.pid as number;
    shim.child.kill("SIGKILL");
    await shim.exited;
    await test.host.close();
    expect(processAlive(pid)).toBe(false);
    const held = test.log.operations("tools/call", "held")[0] as string;
    expect(test.log.terminal(held)).toMatchObject({ failure_kind: "connection_closed" });
    expect(test.log.payloads.at(-1)).toEqual({
      kind: "SESSION_ENDED",
      dependency: "tools",
      session: 1,
      exit_code: null,
    });
  });
});
