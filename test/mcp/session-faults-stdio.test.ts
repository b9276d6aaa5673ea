import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  connectClient,
  mcpFaults,
  occurrences,
  spawnRawShim,
  startTestHost,
  stdioDependency,
  textOf,
  tool,
} from "../helpers/mcp.js";
import { onCleanup } from "../helpers/proxy-harness.js";
import { tempDir } from "../helpers/temp.js";

/**
 * The server behind the SDK client tests: the tools of the SDK's test server in plain JSON-RPC,
 * since these tests are about what the shim writes to the client, not about the server.
 */
const plainServer = () => stdioDependency("mcp-plain-tools-server.mjs");

const call = (id: string, name: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{}}}\n`;

async function scriptedHost(faults: Parameters<typeof startTestHost>[0]) {
  const folder = await tempDir();
  onCleanup(folder.remove);
  const log = join(folder.path, "server.log");
  const test = await startTestHost(faults, stdioDependency("mcp-scripted-server.mjs", { MCP_TEST_LOG: log }));
  const received = (): string[] => {
    try {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "");
    } catch {
      return [];
    }
  };
  return { ...test, received };
}

/** What an SDK call ended with: its result text, or its error's code and message. */
async function outcomeOf(promise: Promise<unknown>) {
  try {
    return { text: textOf(await promise) };
  } catch (error) {
    return { code: error instanceof McpError ? error.code : null, message: (error as Error).message };
  }
}

describe("mcp_malformed over stdio", () => {
  it("writes each shape's exact line in place of the server's answer, which never sees the request", async () => {
    const test = await scriptedHost([
      mcpFaults.malformed("cut", tool("a"), occurrences(1), "not_json"),
      mcpFaults.malformed("other", tool("b"), occurrences(1), "wrong_id"),
      mcpFaults.malformed("bare", tool("c"), occurrences(1), "missing_result"),
    ]);
    const shim = spawnRawShim(test);
    shim.write(call("1", "a"));
    shim.write(call('"two"', "b"));
    shim.write(call("3", "c"));
    shim.write(call("4", "d"));
    expect(await shim.lines(4)).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Injected by Agent Chaos',
      '{"jsonrpc":"2.0","id":"agentchaos-unknown-id","result":{"content":[{"type":"text","text":"Injected by Agent Chaos"}]}}',
      '{"jsonrpc":"2.0","id":3}',
      '{"jsonrpc":"2.0","id":4,"result":{"echo":"tools/call"}}',
    ]);
    expect(test.received()).toEqual([call("4", "d").trimEnd()]);
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => [event.fault_id, event.parameters])).toEqual([
      ["cut", { shape: "not_json" }],
      ["other", { shape: "wrong_id" }],
      ["bare", { shape: "missing_result" }],
    ]);
    expect(
      test.log.ofKind("OPERATION_FAILED").map((event) => [event.failure_kind, event.fault_related]),
    ).toEqual([
      ["injected_malformed", true],
      ["injected_malformed", true],
      ["injected_malformed", true],
    ]);
  });

  it.each(["not_json", "wrong_id", "missing_result"] as const)(
    "the SDK client reports %s to onerror and its call ends only by its own timeout",
    async (shape) => {
      const test = await startTestHost(
        [mcpFaults.malformed("bad", tool("echo"), occurrences(1), shape)],
        plainServer(),
      );
      const { client } = await connectClient(test);
      const errors: string[] = [];
      client.onerror = (error) => errors.push(error.message);
      const first = await outcomeOf(
        client.callTool({ name: "echo", arguments: { text: "hi" } }, undefined, { timeout: 300 }),
      );
      expect(first).toMatchObject({ code: ErrorCode.RequestTimeout });
      expect(errors.length).toBe(1);
      if (shape === "wrong_id") expect(errors[0]).toMatch(/unknown message ID/);
      // The session goes on: the next call is answered.
      expect(await outcomeOf(client.callTool({ name: "echo", arguments: { text: "again" } }))).toEqual({
        text: "again",
      });
    },
  );
});

describe("mcp_oversized over stdio", () => {
  it("pads the server's result to size_bytes (a text content added when it has none)", async () => {
    const test = await scriptedHost([mcpFaults.oversized("big", tool("a"), occurrences(1), 4096)]);
    const shim = spawnRawShim(test);
    shim.write(call("9", "a"));
    const [line] = await shim.lines(1);
    expect(Buffer.byteLength(line as string)).toBe(4096);
    const answer = JSON.parse(line as string);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 9, result: { echo: "tools/call" } });
    expect(answer.result.content[0].text).toMatch(/^x+$/);
    expect(test.received()).toEqual([call("9", "a").trimEnd()]);
    expect(test.log.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ size_bytes: 4096 });
    expect(test.log.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "injected_oversized",
    ]);
  });

  it("writes a 64 MiB answer as one line", async () => {
    const size = 64 * 1024 * 1024;
    const test = await scriptedHost([mcpFaults.oversized("big", tool("a"), occurrences(1), size)]);
    const shim = spawnRawShim(test);
    shim.write(call("1", "a"));
    const [line] = await shim.lines(1);
    expect((line as string).length).toBe(size);
    expect((line as string).endsWith('xxx"}]}}')).toBe(true);
  });

  it("the SDK client gets a padded text below its 10 MiB read limit, and closes its transport on one above it", async () => {
    const test = await startTestHost(
      [
        mcpFaults.oversized("fits", tool("echo"), occurrences(1), 2 * 1024 * 1024),
        mcpFaults.oversized("too-big", tool("echo"), occurrences(2), 12 * 1024 * 1024),
      ],
      plainServer(),
    );
    const { client } = await connectClient(test);
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const fits = await outcomeOf(client.callTool({ name: "echo", arguments: { text: "hi" } }));
    expect(fits.text?.startsWith("hix")).toBe(true);
    expect(fits.text?.length).toBeGreaterThan(2 * 1024 * 1024 - 100);
    // Over 10 MiB the SDK's read buffer gives up: it reports the error and closes the transport.
    const tooBig = await outcomeOf(client.callTool({ name: "echo", arguments: { text: "hi" } }));
    expect(tooBig).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(errors.some((message) => /ReadBuffer exceeded maximum size/.test(message))).toBe(true);
    expect(test.log.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "injected_oversized",
      "injected_oversized",
    ]);
  });
});

describe("mcp_tools_changed over stdio", () => {
  it("notifies before the answer, then lists the changed tools and answers a removed tool -32602", async () => {
    const test = await startTestHost(
      [mcpFaults.toolsChanged("change", tool("echo"), occurrences(1), ["slow", "pid"], "reason")],
      plainServer(),
    );
    const { client } = await connectClient(test);
    const seen: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen.push("list_changed");
    });
    const before = await client.listTools();
    expect(before.tools.map((item) => item.name)).toContain("slow");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
    seen.push("answer");
    expect(seen).toEqual(["list_changed", "answer"]);
    const after = await client.listTools();
    expect(after.tools.map((item) => item.name).sort()).toEqual(["broken", "crash", "echo"]);
    const echo = after.tools.find((item) => item.name === "echo");
    expect(echo?.inputSchema.required).toEqual(["text", "reason"]);
    expect(echo?.inputSchema.properties).toHaveProperty("reason");
    const removed = await outcomeOf(client.callTool({ name: "slow", arguments: { ms: 1, text: "x" } }));
    expect(removed).toMatchObject({ code: -32602 });
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => event.parameters)).toEqual([
      { remove: "slow,pid", require: "reason" },
    ]);
    const failed = test.log.ofKind("OPERATION_FAILED");
    expect(failed.map((event) => [event.failure_kind, event.rpc_error_code, event.fault_related])).toEqual([
      ["rpc_error", -32602, false],
    ]);
  });
});
