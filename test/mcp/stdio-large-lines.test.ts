import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { paramsHash } from "../../src/mcp/identity.js";
import { STDIO_LINE_LIMIT } from "../../src/mcp/lines.js";
import { eventually } from "../helpers/eventually.js";
import {
  mcpFaults,
  occurrences,
  startTestHost,
  stdioDependency,
  type TestHost,
  tool,
} from "../helpers/mcp.js";
import { onCleanup } from "../helpers/proxy-harness.js";

interface Agent {
  write(text: string): void;
  /** The next line the shim writes to the agent, without its newline. */
  nextLine(): Promise<Buffer>;
  errors(): string;
}

/** The shim as a bare process, the test being its agent: lines read in linear time, as bytes. */
function startAgent(test: TestHost): Agent {
  const child = spawn(test.command, test.args, { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  child.stdin.on("error", () => {});
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const lines: Buffer[] = [];
  const waiting: { resolve: (line: Buffer) => void; reject: (error: Error) => void }[] = [];
  // A shim that ended writes no more lines: a test waiting for one fails at once, with its stderr.
  let closed = false;
  const ended = (): Error =>
    new Error(`the shim ended before its next line; stderr: ${JSON.stringify(stderr)}`);
  child.once("close", () => {
    closed = true;
    for (const taker of waiting.splice(0)) taker.reject(ended());
  });
  let parts: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...parts, chunk.subarray(start, newline)]);
      parts = [];
      start = newline + 1;
      const taker = waiting.shift();
      if (taker === undefined) lines.push(line);
      else taker.resolve(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  return {
    write: (text) => {
      child.stdin.write(text);
    },
    nextLine: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (closed) return Promise.reject(ended());
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    errors: () => stderr,
  };
}

const largeServer = () => stdioDependency("mcp-large-server.mjs");

function call(id: string, name: string, args: Record<string, unknown>): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;
}

function parsed(line: Buffer): {
  id: unknown;
  result?: { content: { text: string }[] };
  error?: { code: number; message: string };
} {
  return JSON.parse(line.toString("utf8"));
}

describe("large lines through the stdio shim", () => {
  it("relays a 16 MiB request and its 16 MiB answer intact, and records them as usual", async () => {
    const test = await startTestHost([], largeServer());
    const agent = startAgent(test);
    const text = randomBytes(12 * 1024 * 1024).toString("base64");
    expect(text.length).toBe(16 * 1024 * 1024);
    agent.write(call("up-and-down", "echo", { text }));
    const answer = parsed(await agent.nextLine());
    expect(answer.id).toBe("up-and-down");
    expect(answer.result?.content[0]?.text === text).toBe(true);

    await eventually(() => test.log.ofKind("OPERATION_SUCCEEDED").length === 1);
    const [observed] = test.log.ofKind("OPERATION_OBSERVED");
    expect(observed).toMatchObject({
      method: "tools/call",
      path: "echo",
      body_hash: paramsHash({ name: "echo", arguments: { text } }),
    });
    expect(agent.errors()).toBe("");
  });

  it("refuses a request line over 64 MiB: never forwarded, answered with an error, recorded as proxy_error", async () => {
    const test = await startTestHost([], largeServer());
    const agent = startAgent(test);
    // Members in the order the official SDK writes them: the id comes last.
    const head = '{"method":"tools/call","params":{"name":"echo","arguments":{"text":"';
    const tail = '"}},"jsonrpc":"2.0","id":"too-big"}';
    const line = `${head}${"x".repeat(STDIO_LINE_LIMIT - head.length - tail.length + 1)}${tail}`;
    expect(Buffer.byteLength(line)).toBe(STDIO_LINE_LIMIT + 1);
    agent.write(`${line}\n`);

    const refusal = parsed(await agent.nextLine());
    expect(refusal.id).toBe("too-big");
    expect(refusal.error?.code).toBe(-32603);
    expect(refusal.error?.message).toContain(String(STDIO_LINE_LIMIT));
    const [observed] = test.log.ofKind("OPERATION_OBSERVED");
    expect(observed).toMatchObject({
      method: "tools/call",
      path: "echo",
      body_hash: createHash("sha256").update(line).digest("hex"),
      session: 1,
    });
    expect(test.log.terminal(observed?.operation_id as string)).toMatchObject({
      kind: "OPERATION_FAILED",
      failure_kind: "proxy_error",
      status_code: null,
      fault_related: false,
    });
    await eventually(() => agent.errors().endsWith("\n"));
    const lines = agent.errors().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^agentchaos mcp-shim \(tools\): refused a message of 67108865 bytes from the agent: .*67108864 bytes/,
    );

    // The server never saw it: the next request is the first line it receives.
    agent.write(call("after", "count", {}));
    const after = parsed(await agent.nextLine());
    expect(after).toMatchObject({ id: "after", result: { content: [{ text: "1" }] } });
  });

  it("refuses an answer over 64 MiB: the agent gets an error for its request, recorded as proxy_error", async () => {
    const test = await startTestHost([], largeServer());
    const agent = startAgent(test);
    agent.write(call("huge-answer", "sized", { bytes: STDIO_LINE_LIMIT }));
    const refusal = parsed(await agent.nextLine());
    expect(refusal.id).toBe("huge-answer");
    expect(refusal.error?.code).toBe(-32603);
    const id = test.log.operations("tools/call", "sized")[0] as string;
    expect(test.log.terminal(id)).toMatchObject({
      kind: "OPERATION_FAILED",
      failure_kind: "proxy_error",
      fault_related: false,
    });
    await eventually(() => agent.errors().endsWith("\n"));
    expect(agent.errors()).toMatch(
      /^agentchaos mcp-shim \(tools\): refused a message of \d+ bytes from the server: [^\n]*\n$/,
    );

    agent.write(call("small", "echo", { text: "still relayed" }));
    expect(parsed(await agent.nextLine())).toMatchObject({
      id: "small",
      result: { content: [{ text: "still relayed" }] },
    });
    expect(test.log.ofKind("OPERATION_SUCCEEDED")).toHaveLength(1);
  });

  it("holds a large request a fault targets for the run's decision, and records the others in order", async () => {
    const faults = [mcpFaults.error("broken-echo", tool("echo"), occurrences(1))];
    const test = await startTestHost(faults, largeServer());
    const agent = startAgent(test);
    const text = "y".repeat(1024 * 1024);
    // No fault targets the first: it may go to the server before it is read for the evidence.
    agent.write(call("other", "sized", { bytes: 10, padding: text }));
    agent.write(call("targeted", "echo", { text }));
    const answers = [parsed(await agent.nextLine()), parsed(await agent.nextLine())];
    expect(answers.find((answer) => answer.id === "other")).toMatchObject({
      result: { content: [{ text: "x".repeat(10) }] },
    });
    expect(answers.find((answer) => answer.id === "targeted")).toMatchObject({ error: { code: -32603 } });
    // The targeted one never reached the server.
    agent.write(call("count", "count", {}));
    expect(parsed(await agent.nextLine())).toMatchObject({
      id: "count",
      result: { content: [{ text: "2" }] },
    });

    const observed = test.log.ofKind("OPERATION_OBSERVED");
    expect(observed.map((event) => [event.path, event.body_hash])).toEqual([
      ["sized", paramsHash({ name: "sized", arguments: { bytes: 10, padding: text } })],
      ["echo", paramsHash({ name: "echo", arguments: { text } })],
      ["count", paramsHash({ name: "count", arguments: {} })],
    ]);
    const [other, targeted] = observed.map((event) => event.operation_id);
    expect(test.log.terminal(other as string)).toMatchObject({ kind: "OPERATION_SUCCEEDED" });
    expect(test.log.terminal(targeted as string)).toMatchObject({ failure_kind: "injected_rpc_error" });
  });

  it("holds a large delayed answer apart, so the answers behind it pass it", async () => {
    const faults = [mcpFaults.latency("slow-sized", tool("sized"), occurrences(1), 1500)];
    const test = await startTestHost(faults, largeServer());
    const agent = startAgent(test);
    agent.write(call("delayed", "sized", { bytes: 1024 * 1024 }));
    agent.write(call("quick", "echo", { text: "first" }));
    expect(parsed(await agent.nextLine())).toMatchObject({
      id: "quick",
      result: { content: [{ text: "first" }] },
    });
    const delayed = parsed(await agent.nextLine());
    expect(delayed.id).toBe("delayed");
    expect(delayed.result?.content[0]?.text).toBe("x".repeat(1024 * 1024));
  });
});
