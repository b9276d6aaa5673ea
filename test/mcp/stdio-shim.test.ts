import { spawn } from "node:child_process";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { eventually } from "../helpers/eventually.js";
import {
  connectClient,
  mcpFaults,
  occurrences,
  PROGRAMS,
  spawnRawShim,
  startScriptedHost,
  startTestHost,
  stdioDependency,
  textOf,
  tool,
  toolCallLine,
} from "../helpers/mcp.js";
import { onCleanup } from "../helpers/proxy-harness.js";

/**
 * The SDK's own server answers the first test, which relays a whole SDK session; the others are
 * about the shim and the host, so a plain JSON-RPC server with the same tools (and, for the
 * orphan tests, a plain JSON-RPC workload) carries their traffic without loading the SDK in
 * every child. The SDK client still speaks to the shim in every test that connects one. The
 * session faults below (mcp_malformed, mcp_oversized, mcp_tools_changed) are about what the shim
 * writes to the client, so they use the plain server too.
 */
const plainServer = () => stdioDependency("mcp-plain-tools-server.mjs");

describe("the stdio shim with the SDK's own client and server", () => {
  it("relays a whole SDK session and records one session with an operation per request", async () => {
    const test = await startTestHost();
    const { client } = await connectClient(test);
    const tools = await client.listTools();
    expect(tools.tools.map((entry) => entry.name)).toEqual(["echo", "slow", "crash", "broken", "pid"]);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hello" } }))).toBe("hello");
    const broken = await client.callTool({ name: "broken", arguments: {} });
    expect(broken.isError).toBe(true);
    await client.close();
    await test.host.close();

    const { log } = test;
    expect(log.payloads[0]).toMatchObject({ kind: "SESSION_STARTED", dependency: "tools", session: 1 });
    expect(log.payloads.at(-1)).toEqual({
      kind: "SESSION_ENDED",
      dependency: "tools",
      session: 1,
      exit_code: 0,
    });
    const observed = log.ofKind("OPERATION_OBSERVED");
    expect(observed.map((event) => [event.method, event.path, event.session, event.protocol])).toEqual([
      ["initialize", "", 1, "mcp"],
      ["tools/list", "", 1, "mcp"],
      ["tools/call", "echo", 1, "mcp"],
      ["tools/call", "broken", 1, "mcp"],
    ]);
    expect(observed.every((event) => event.query_hash === null && event.idempotency_key_hash === null)).toBe(
      true,
    );
    const broke = log.operations("tools/call", "broken")[0] as string;
    expect(log.terminal(broke)).toMatchObject({
      failure_kind: "tool_error",
      fault_related: false,
      status_code: null,
    });
    expect(log.ofKind("OPERATION_SUCCEEDED")).toHaveLength(3);
  });

  it("selects exactly the scheduled occurrences among concurrent tool calls of one session", async () => {
    const test = await startTestHost(
      [mcpFaults.toolError("flaky", tool("echo"), occurrences(5, 12))],
      plainServer(),
    );
    const { client } = await connectClient(test);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.callTool({ name: "echo", arguments: { text: `n${i}` } })),
    );
    expect(results.filter((result) => result.isError === true)).toHaveLength(2);
    const observed = test.log.operations("tools/call", "echo");
    expect(observed).toHaveLength(20);
    const injected = test.log
      .ofKind("FAULT_INJECTED")
      .map((event) => observed.indexOf(event.operation_id) + 1);
    expect(injected).toEqual([5, 12]);
    for (const id of observed) {
      expect(
        test.log.kindsOf(id).filter((kind) => kind === "OPERATION_SUCCEEDED" || kind === "OPERATION_FAILED"),
      ).toHaveLength(1);
    }
  });

  it("counts across two concurrent sessions, so a schedule selects each occurrence exactly once", async () => {
    const test = await startTestHost(
      [mcpFaults.error("shared", tool("echo"), occurrences(3, 8))],
      plainServer(),
    );
    const one = await connectClient(test);
    const two = await connectClient(test);
    const calls = Array.from({ length: 6 }, (_, i) => [
      one.client.callTool({ name: "echo", arguments: { text: `a${i}` } }).then(
        () => "ok",
        () => "error",
      ),
      two.client.callTool({ name: "echo", arguments: { text: `b${i}` } }).then(
        () => "ok",
        () => "error",
      ),
    ]).flat();
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((outcome) => outcome === "error")).toHaveLength(2);
    const started = test.log.ofKind("SESSION_STARTED");
    expect(started.map((event) => event.session)).toEqual([1, 2]);
    const observed = test.log.ofKind("OPERATION_OBSERVED").filter((event) => event.path === "echo");
    expect(new Set(observed.map((event) => event.session))).toEqual(new Set([1, 2]));
    const ids = observed.map((event) => event.operation_id);
    expect(test.log.ofKind("FAULT_INJECTED").map((event) => ids.indexOf(event.operation_id) + 1)).toEqual([
      3, 8,
    ]);
  });

  it("records connection_closed when the server crashes mid-call, and the session's exit code", async () => {
    const test = await startTestHost([], plainServer());
    const { client } = await connectClient(test);
    const closed = new Promise<void>((resolve) => {
      client.onclose = () => resolve();
    });
    await expect(client.callTool({ name: "crash", arguments: {} })).rejects.toThrow();
    await closed;
    await eventually(() => test.log.ofKind("SESSION_ENDED").length === 1);
    const crash = test.log.operations("tools/call", "crash")[0] as string;
    expect(test.log.terminal(crash)).toMatchObject({
      failure_kind: "connection_closed",
      fault_related: false,
    });
    expect(test.log.ofKind("SESSION_ENDED")[0]).toMatchObject({ session: 1, exit_code: 3 });
  });

  it("records client_cancelled when the SDK client cancels a call", async () => {
    const test = await startTestHost([], plainServer());
    const { client } = await connectClient(test);
    const abort = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 2000, text: "late" } }, undefined, {
      signal: abort.signal,
    });
    await eventually(() => test.log.operations("tools/call", "slow").length === 1);
    abort.abort("changed my mind");
    await expect(call).rejects.toThrow();
    const slow = test.log.operations("tools/call", "slow")[0] as string;
    await eventually(() => test.log.terminal(slow) !== undefined);
    expect(test.log.terminal(slow)).toMatchObject({ failure_kind: "client_cancelled", fault_related: false });
    // The session goes on.
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
  });

  it("never lets tool arguments or results out of the shim", async () => {
    const secret = "sk-planted-3c1e9a7d";
    const test = await startTestHost(
      [mcpFaults.latency("slow", tool("echo"), occurrences(2), 10)],
      plainServer(),
    );
    const { client, transport } = await connectClient(test);
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    for (let i = 0; i < 3; i++) {
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: `${secret}-${i}` } }))).toBe(
        `${secret}-${i}`,
      );
    }
    await client.close();
    await test.host.close();
    expect(test.log.ofKind("OPERATION_OBSERVED").length).toBeGreaterThan(3);
    expect(test.log.text()).not.toContain("sk-planted");
    expect(stderr).not.toContain("sk-planted");
  });
});

describe("joining a run", () => {
  it("exits 1 with one line when no run is listening", async () => {
    const test = await startTestHost();
    await test.host.close();
    const shim = spawnRawShim(test);
    expect(await shim.exited).toBe(1);
    expect(shim.errors()).toBe(
      "agentchaos mcp-shim (tools): cannot join the run (no run is listening on its channel)\n",
    );
  });

  it("exits 1 with one line for a wrong secret, and nothing is recorded", async () => {
    const test = await startTestHost();
    const args = test.args.map((arg, i) => (test.args[i - 1] === "--secret" ? "0".repeat(arg.length) : arg));
    const shim = spawnRawShim(test, args);
    expect(await shim.exited).toBe(1);
    expect(shim.errors()).toBe(
      "agentchaos mcp-shim (tools): cannot join the run (refused: wrong secret, wrong dependency, or the run is ending)\n",
    );
    expect(test.log.payloads).toEqual([]);
  });

  it("exits 2 with one line for bad arguments", async () => {
    const test = await startTestHost();
    for (const [args, message] of [
      [[], "missing --dependency"],
      [["--dependency", "tools", "--channel", "x"], "missing --secret"],
      [["--dependency", "tools", "--bogus", "1"], "unknown option '--bogus'"],
      [["--dependency"], "--dependency needs a value"],
    ] as const) {
      const shim = spawnRawShim(test, [test.args[0] as string, "mcp-shim", ...args]);
      expect(await shim.exited).toBe(2);
      expect(shim.errors()).toBe(`agentchaos mcp-shim: ${message}\n`);
    }
  });

  it("exits 1 with one line when the server cannot be started", async () => {
    const dependency = { ...stdioDependency(), command: ["/nonexistent/mcp-server"] as [string] };
    const test = await startTestHost([], dependency);
    const shim = spawnRawShim(test);
    expect(await shim.exited).toBe(1);
    expect(shim.errors()).toBe("agentchaos mcp-shim (tools): cannot start the MCP server (ENOENT)\n");
    expect(test.log.payloads).toEqual([]);
  });
});

describe("no orphaned server", () => {
  async function startAgent(test: Awaited<ReturnType<typeof startTestHost>>, mode: "exit" | "hang") {
    const agent = spawn(process.execPath, [`${PROGRAMS}mcp-plain-pid-agent.mjs`, mode], {
      env: {
        ...process.env,
        AGENTCHAOS_TOOLS_COMMAND: test.command,
        AGENTCHAOS_TOOLS_ARGS: JSON.stringify(test.args),
      },
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    const exited = new Promise<void>((resolve) => agent.once("close", () => resolve()));
    onCleanup(async () => {
      try {
        process.kill(-(agent.pid as number), "SIGKILL");
      } catch {
        // Already gone.
      }
      await exited;
    });
    const pid = await new Promise<number>((resolve) => {
      agent.stdout?.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    });
    return { agent, pid, exited };
  }

  it("after the workload exits without closing its client", async () => {
    const test = await startTestHost([], plainServer());
    const { agent, pid, exited } = await startAgent(test, "exit");
    // The server answered with its pid. It may already be gone by now: the agent exits as soon as
    // it has printed it, and the shim then ends the server.
    expect(Number.isInteger(pid) && pid > 0).toBe(true);
    expect([process.pid, agent.pid]).not.toContain(pid);
    await exited;
    await eventually(() => !processAlive(pid));
    await eventually(() => test.log.ofKind("SESSION_ENDED").length === 1);
  });

  it("after the workload's process group is killed (a timed-out workload)", async () => {
    const test = await startTestHost([], plainServer());
    const { agent, pid } = await startAgent(test, "hang");
    process.kill(-(agent.pid as number), "SIGKILL");
    await test.host.close();
    expect(processAlive(pid)).toBe(false);
    expect(test.log.payloads.at(-1)).toMatchObject({ kind: "SESSION_ENDED", session: 1 });
  });

  it("after the run is interrupted, with SESSION_ENDED recorded before close resolves", async () => {
    const test = await startTestHost([], plainServer());
    const { pid } = await startAgent(test, "hang");
    test.interrupt.abort();
    await eventually(() => !processAlive(pid));
    await test.host.close();
    expect(test.log.ofKind("SESSION_ENDED")).toHaveLength(1);
    // From here on, anything the host records fails the run.
    test.log.emit = () => {
      throw new Error("an event was recorded after the host closed");
    };
  });
});

describe("the run's channel", () => {
  it("survives a peer that sends garbage or half-formed messages, and records nothing for it", async () => {
    const { connect } = await import("node:net");
    const test = await startTestHost([], plainServer());
    const channel = test.args[test.args.indexOf("--channel") + 1] as string;
    for (const garbage of [
      "null\n",
      "[1,2]\n",
      "not json\n",
      '{"type":"join"}\n',
      '{"type":"request","key":1}\n',
    ]) {
      const socket = connect(channel);
      socket.on("error", () => {});
      socket.resume();
      socket.write(garbage);
      await new Promise((resolve) => socket.once("close", resolve));
    }
    // The host still serves real shims.
    const { client } = await connectClient(test);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "fine" } }))).toBe("fine");
    expect(test.log.ofKind("SESSION_STARTED")).toHaveLength(1);
  });
});

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
    const test = await startScriptedHost([
      mcpFaults.malformed("cut", tool("a"), occurrences(1), "not_json"),
      mcpFaults.malformed("other", tool("b"), occurrences(1), "wrong_id"),
      mcpFaults.malformed("bare", tool("c"), occurrences(1), "missing_result"),
    ]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("1", "a"));
    shim.write(toolCallLine('"two"', "b"));
    shim.write(toolCallLine("3", "c"));
    shim.write(toolCallLine("4", "d"));
    expect(await shim.lines(4)).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Injected by Agent Chaos',
      '{"jsonrpc":"2.0","id":"agentchaos-unknown-id","result":{"content":[{"type":"text","text":"Injected by Agent Chaos"}]}}',
      '{"jsonrpc":"2.0","id":3}',
      '{"jsonrpc":"2.0","id":4,"result":{"echo":"tools/call"}}',
    ]);
    expect(test.received()).toEqual([toolCallLine("4", "d").trimEnd()]);
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
    const test = await startScriptedHost([mcpFaults.oversized("big", tool("a"), occurrences(1), 4096)]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("9", "a"));
    const [line] = await shim.lines(1);
    expect(Buffer.byteLength(line as string)).toBe(4096);
    const answer = JSON.parse(line as string);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 9, result: { echo: "tools/call" } });
    expect(answer.result.content[0].text).toMatch(/^x+$/);
    expect(test.received()).toEqual([toolCallLine("9", "a").trimEnd()]);
    expect(test.log.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ size_bytes: 4096 });
    expect(test.log.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "injected_oversized",
    ]);
  });

  it("writes a 64 MiB answer as one line", async () => {
    const size = 64 * 1024 * 1024;
    const test = await startScriptedHost([mcpFaults.oversized("big", tool("a"), occurrences(1), size)]);
    const shim = spawnRawShim(test);
    shim.write(toolCallLine("1", "a"));
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
