import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { mcpFaults, occurrences, textOf, tool } from "../helpers/mcp.js";
import { connectHttpClient, startHttpTest } from "../helpers/mcp-http.js";

async function outcomeOf(promise: Promise<unknown>) {
  try {
    return { text: textOf(await promise) };
  } catch (error) {
    return { code: error instanceof McpError ? error.code : null, message: (error as Error).message };
  }
}

describe.each([
  ["JSON", true],
  ["SSE", false],
] as const)("session faults over Streamable HTTP (%s answers)", (_label, json) => {
  it("mcp_malformed answers each shape with a status-200 JSON body; what the SDK client does with each", async () => {
    const test = await startHttpTest(
      [
        mcpFaults.malformed("cut", tool("echo"), occurrences(1), "not_json"),
        mcpFaults.malformed("other", tool("echo"), occurrences(2), "wrong_id"),
        mcpFaults.malformed("bare", tool("echo"), occurrences(3), "missing_result"),
      ],
      json,
    );
    const client = await connectHttpClient(test.proxy.url);
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const outcomes: Awaited<ReturnType<typeof outcomeOf>>[] = [];
    for (let round = 0; round < 3; round++) {
      outcomes.push(
        await outcomeOf(
          client.callTool({ name: "echo", arguments: { text: "hi" } }, undefined, { timeout: 300 }),
        ),
      );
    }
    // Over HTTP the SDK parses the POST's answer itself: an unparsable body rejects the call at
    // once; an answer with an unknown id is dropped (onerror) and the call waits for its timeout.
    expect(outcomes[0]).toMatchObject({ code: null, message: expect.stringMatching(/JSON/) });
    expect(outcomes[1]).toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(outcomes[2]).toMatchObject({ code: null, message: expect.stringMatching(/invalid_union/) });
    expect(errors.some((message) => /unknown message ID/.test(message))).toBe(true);
    expect(await outcomeOf(client.callTool({ name: "echo", arguments: { text: "ok" } }))).toEqual({
      text: "ok",
    });
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => event.parameters)).toEqual([
      { shape: "not_json" },
      { shape: "wrong_id" },
      { shape: "missing_result" },
    ]);
    expect(test.log.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "injected_malformed",
      "injected_malformed",
      "injected_malformed",
    ]);
    // The server saw none of the three calls.
    expect(test.server.posts.filter((body) => body.includes('"tools/call"'))).toHaveLength(1);
  });

  it("mcp_oversized pads the real result to size_bytes", async () => {
    const size = 3 * 1024 * 1024;
    const test = await startHttpTest([mcpFaults.oversized("big", tool("echo"), occurrences(1), size)], json);
    const client = await connectHttpClient(test.proxy.url);
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    const text = textOf(result);
    expect(text.startsWith("hixx")).toBe(true);
    expect(/^hix+$/.test(text)).toBe(true);
    expect(JSON.stringify({ result, jsonrpc: "2.0", id: 2 }).length).toBeGreaterThanOrEqual(size - 64);
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => event.parameters)).toEqual([
      { size_bytes: size },
    ]);
    expect(test.log.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "injected_oversized",
    ]);
  });

  it("mcp_tools_changed: the notification comes in the answer's response, then tools/list and calls change", async () => {
    const test = await startHttpTest(
      [mcpFaults.toolsChanged("change", tool("echo"), occurrences(1), ["slow"], "reason")],
      json,
    );
    const client = await connectHttpClient(test.proxy.url);
    const seen: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen.push("list_changed");
    });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
    seen.push("answer");
    expect(seen).toEqual(["list_changed", "answer"]);
    const after = await client.listTools();
    expect(after.tools.map((item) => item.name).sort()).toEqual(["broken", "echo"]);
    expect(after.tools.find((item) => item.name === "echo")?.inputSchema.required).toEqual([
      "text",
      "reason",
    ]);
    expect(await outcomeOf(client.callTool({ name: "slow", arguments: { ms: 1, text: "x" } }))).toMatchObject(
      {
        code: -32602,
      },
    );
    expect(test.server.posts.some((body) => body.includes('"slow"'))).toBe(false);
    expect(
      test.log.ofKind("OPERATION_FAILED").map((event) => [event.failure_kind, event.rpc_error_code]),
    ).toEqual([["rpc_error", -32602]]);
    // Another session keeps the server's own tools.
    const other = await connectHttpClient(test.proxy.url);
    expect((await other.listTools()).tools.map((item) => item.name)).toContain("slow");
  });
});
