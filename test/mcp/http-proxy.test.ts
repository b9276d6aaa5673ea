import { describe, expect, it } from "vitest";
import type { Fault } from "../../src/scenario/types.js";
import { eventually } from "../helpers/eventually.js";
import { mcpFaults, occurrences, textOf, tool } from "../helpers/mcp.js";
import { connectHttpClient, startHttpTest } from "../helpers/mcp-http.js";

const call = (id: string, name: string, args = "{}") =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

function post(url: string, body: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body,
    ...(signal === undefined ? {} : { signal }),
  });
}

const classic = (fault: Record<string, unknown>): Fault =>
  ({
    dependency: "tools",
    expect: "recover",
    trigger: occurrences(1),
    target: tool("echo"),
    ...fault,
  }) as Fault;

describe("Streamable HTTP with protocol: mcp", () => {
  for (const json of [true, false]) {
    it(`records each POSTed request as an MCP operation completed by its ${json ? "JSON" : "SSE"} response`, async () => {
      const test = await startHttpTest([], json);
      const client = await connectHttpClient(test.proxy.url);
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
      expect((await client.callTool({ name: "broken", arguments: {} })).isError).toBe(true);
      await client.close();
      await test.proxy.close();
      const observed = test.log.ofKind("OPERATION_OBSERVED");
      // Notifications, the GET listening stream and the session's DELETE are relayed, not recorded.
      expect(observed.map((event) => [event.method, event.path, event.session, event.protocol])).toEqual([
        ["initialize", "", null, "mcp"],
        ["tools/call", "echo", null, "mcp"],
        ["tools/call", "broken", null, "mcp"],
      ]);
      const relayed = json ? null : 1;
      expect(
        test.log.ofKind("OPERATION_SUCCEEDED").map((event) => [event.status_code, event.relayed_events]),
      ).toEqual([
        [null, relayed],
        [null, relayed],
      ]);
      expect(test.log.ofKind("OPERATION_FAILED")).toMatchObject([
        { failure_kind: "tool_error", relayed_events: relayed },
      ]);
    });
  }

  it("answers mcp_error and mcp_tool_error with exact bytes and headers, the original ids, nothing upstream", async () => {
    const test = await startHttpTest([
      mcpFaults.error("rpc", tool("lookup"), occurrences(1), -32050),
      mcpFaults.toolError("tool", tool("search"), occurrences(1)),
    ]);
    const first = await post(test.proxy.url, call("41", "lookup"));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("x-agent-chaos-fault")).toBe("mcp_error");
    expect(await first.text()).toBe(
      '{"jsonrpc":"2.0","id":41,"error":{"code":-32050,"message":"Injected by Agent Chaos"}}',
    );
    const second = await post(test.proxy.url, call('"id-\\"x\\""', "search"));
    expect(second.headers.get("x-agent-chaos-fault")).toBe("mcp_tool_error");
    expect(await second.text()).toBe(
      '{"jsonrpc":"2.0","id":"id-\\"x\\"","result":{"content":[{"type":"text","text":"Injected by Agent Chaos"}],"isError":true}}',
    );
    expect(test.server.posts).toEqual([]);
    expect(
      test.log.ofKind("OPERATION_FAILED").map((event) => [event.failure_kind, event.rpc_error_code]),
    ).toEqual([
      ["injected_rpc_error", -32050],
      ["injected_tool_error", null],
    ]);
  });

  it("mcp_no_response leaves the POST unanswered; mcp_disconnect destroys the connection", async () => {
    const test = await startHttpTest([
      mcpFaults.noResponse("silent", tool("lookup"), occurrences(1)),
      mcpFaults.disconnect("cut", tool("search"), occurrences(1)),
    ]);
    const abort = new AbortController();
    const silent = post(test.proxy.url, call("1", "lookup"), abort.signal);
    let settled = false;
    silent.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await eventually(() => test.log.ofKind("FAULT_INJECTED").length === 1, { what: "the no-response fault" });
    await expect(post(test.proxy.url, call("2", "search"))).rejects.toThrow();
    // A later exchange through the proxy has ended; the first one still waits for its answer.
    expect(settled).toBe(false);
    abort.abort();
    await expect(silent).rejects.toThrow();
    expect(test.server.posts).toEqual([]);
    expect(
      test.log.ofKind("OPERATION_FAILED").map((event) => [event.failure_kind, event.fault_related]),
    ).toEqual([
      ["injected_no_response", true],
      ["injected_disconnect", true],
    ]);
  });

  it("mcp_latency forwards at once and delays the answer; the evidence is a fault-related success", async () => {
    const test = await startHttpTest([mcpFaults.latency("slow", tool("echo"), occurrences(2), 300)], false);
    const client = await connectHttpClient(test.proxy.url);
    await client.callTool({ name: "echo", arguments: { text: "a" } });
    const started = Date.now();
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "b" } }))).toBe("b");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const delayed = test.log.operations("tools/call", "echo")[1] as string;
    expect(test.log.kindsOf(delayed)).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_SUCCEEDED",
    ]);
    expect(test.log.terminal(delayed)).toMatchObject({ fault_related: true, relayed_events: 1 });
  });

  it("the five http_* faults act on the HTTP exchange that carries the targeted request", async () => {
    const test = await startHttpTest([
      classic({ id: "gateway", type: "http_error", statusCode: 503 }),
      classic({ id: "limit", type: "http_rate_limit", retryAfterSeconds: 2, trigger: occurrences(2) }),
    ]);
    const client = await connectHttpClient(test.proxy.url);
    await expect(client.callTool({ name: "echo", arguments: { text: "x" } })).rejects.toThrow();
    await expect(client.callTool({ name: "echo", arguments: { text: "x" } })).rejects.toThrow();
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "x" } }))).toBe("x");
    const [first, second, third] = test.log.operations("tools/call", "echo") as [string, string, string];
    expect(test.log.terminal(first)).toMatchObject({ failure_kind: "injected_http_error", status_code: 503 });
    expect(test.log.terminal(second)).toMatchObject({
      failure_kind: "injected_rate_limit",
      status_code: 429,
    });
    expect(test.log.kindsOf(second)).toContain("RETRY_OBSERVED");
    expect(test.log.kindsOf(third)).toEqual(["OPERATION_OBSERVED", "RETRY_OBSERVED", "OPERATION_SUCCEEDED"]);
  });

  it("records client_cancelled when the SDK client cancels a call (notifications/cancelled)", async () => {
    const test = await startHttpTest([], false);
    const client = await connectHttpClient(test.proxy.url);
    const abort = new AbortController();
    const slow = client.callTool({ name: "slow", arguments: { ms: 1500, text: "late" } }, undefined, {
      signal: abort.signal,
    });
    await eventually(() => test.log.operations("tools/call", "slow").length === 1);
    abort.abort("no longer needed");
    await expect(slow).rejects.toThrow();
    const id = test.log.operations("tools/call", "slow")[0] as string;
    await eventually(() => test.log.terminal(id) !== undefined);
    expect(test.log.terminal(id)).toMatchObject({ failure_kind: "client_cancelled" });
  });

  it("selects exactly the scheduled occurrences among concurrent requests", async () => {
    const test = await startHttpTest([mcpFaults.toolError("flaky", tool("echo"), occurrences(4, 9))]);
    const client = await connectHttpClient(test.proxy.url);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => client.callTool({ name: "echo", arguments: { text: String(i) } })),
    );
    expect(results.filter((result) => result.isError === true)).toHaveLength(2);
    const ids = test.log.operations("tools/call", "echo");
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => ids.indexOf(event.operation_id) + 1)).toEqual([
      4, 9,
    ]);
  });

  it("relays a malformed POST unchanged, counts it and records nothing; arguments never reach the events", async () => {
    const test = await startHttpTest();
    const response = await post(test.proxy.url, "{not json");
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('{"error":"not json"}');
    expect(test.server.posts).toEqual(["{not json"]);
    expect(test.proxy.diagnostics()).toEqual({ malformedMessages: 1 });
    const client = await connectHttpClient(test.proxy.url);
    await client.callTool({ name: "echo", arguments: { text: "sk-planted-77aa" } });
    await client.close();
    await test.proxy.close();
    expect(test.log.ofKind("OPERATION_OBSERVED")).toHaveLength(2);
    expect(test.log.text()).not.toContain("sk-planted");
  });
});
