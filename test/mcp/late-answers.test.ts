/**
 * An answer that arrives after the agent's `notifications/cancelled` (docs/events.md,
 * MCP_CANCELLED): its outcome is read, the operation keeps its one `client_cancelled` ending,
 * and the answer never reaches the agent — over stdio through the shim, and over Streamable
 * HTTP as a buffered JSON body or on an SSE stream. The server (test/fixtures/programs/
 * mcp-late-answer-server.mjs) answers the cancelled call anyway, and only when a later call asks
 * it to, before answering that later call: the agent's next message is the later call's answer.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { startMcpHttpProxy } from "../../src/mcp/http/proxy.js";
import { startMcpStdioHost } from "../../src/mcp/stdio/host.js";
import { lateAnswerServer } from "../fixtures/programs/mcp-late-answer-server.mjs";
import { eventually } from "../helpers/eventually.js";
import {
  mcpFaults,
  occurrences,
  PayloadLog,
  PROGRAMS,
  stdioDependency,
  textOf,
  tool,
} from "../helpers/mcp.js";
import { onCleanup } from "../helpers/proxy-harness.js";

/** Every message the client's transport hands to the SDK client, in order. */
function recordIncoming(transport: Transport): JSONRPCMessage[] {
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    received.push(message);
    deliver?.(message, extra);
  };
  return received;
}

async function connect(transport: Transport): Promise<{ client: Client; received: JSONRPCMessage[] }> {
  const client = new Client({ name: "cancelling-agent", version: "1.0.0" });
  onCleanup(() => client.close().catch(() => {}));
  await client.connect(transport);
  return { client, received: recordIncoming(transport) };
}

/**
 * Calls `held`, waits until the run recorded it, aborts it (the SDK client sends
 * notifications/cancelled) and waits until the run recorded the cancellation; then calls
 * `release`, whose answer comes only after the server answered `held`.
 */
async function cancelThenRelease(client: Client, log: PayloadLog) {
  const abort = new AbortController();
  const held = client.callTool({ name: "held", arguments: {} }, undefined, { signal: abort.signal });
  await eventually(() => log.operations("tools/call", "held").length === 1, { what: "held observed" });
  abort.abort("no longer needed");
  await expect(held).rejects.toThrow();
  const heldId = log.operations("tools/call", "held")[0] as string;
  await eventually(() => log.kindsOf(heldId).includes("MCP_CANCELLED"), { what: "MCP_CANCELLED" });
  const cancelledAt = log.payloads.length;
  const released = await client.callTool({ name: "release", arguments: {} });
  return { heldId, released, cancelledAt };
}

function expectRecordedOnce(log: PayloadLog, heldId: string, session: number | null): void {
  expect(log.kindsOf(heldId)).toEqual(["OPERATION_OBSERVED", "MCP_CANCELLED", "OPERATION_FAILED"]);
  expect(log.terminal(heldId)).toMatchObject({ failure_kind: "client_cancelled", fault_related: false });
  expect(log.ofKind("MCP_CANCELLED")).toEqual([
    { kind: "MCP_CANCELLED", dependency: "tools", session, operation_id: heldId },
  ]);
}

/** A stdio host (cancellations recorded) for the late-answer server, and an SDK client through its shim. */
async function stdioSetup(faults: Parameters<typeof startMcpStdioHost>[0]["faults"] = []) {
  const log = new PayloadLog();
  const interrupt = new AbortController();
  const host = await startMcpStdioHost({
    dependency: stdioDependency("mcp-late-answer-server.mjs"),
    faults,
    sink: log,
    runDir: PROGRAMS,
    runId: "20260101T000000Z-00000000",
    interrupt: interrupt.signal,
    recordsCancellations: true,
  });
  onCleanup(() => host.close());
  const transport = new StdioClientTransport({
    command: host.env.AGENTCHAOS_TOOLS_COMMAND as string,
    args: JSON.parse(host.env.AGENTCHAOS_TOOLS_ARGS as string) as string[],
    stderr: "pipe",
  });
  return { log, ...(await connect(transport)) };
}

describe("an answer after the agent's cancellation, over stdio", () => {
  it("is read by the shim and dropped: the agent's next message is the answer to its next call", async () => {
    const { log, client, received } = await stdioSetup();
    const before = received.length;
    const { heldId, released } = await cancelThenRelease(client, log);
    expect(textOf(released)).toBe("released");
    // The server answered `held` before `release`, on the same pipe: nothing came in between.
    expect(received.slice(before)).toHaveLength(1);
    expect(received.slice(before)[0]).toMatchObject({ result: { content: [{ text: "released" }] } });
    expectRecordedOnce(log, heldId, 1);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
  });
});

describe("an answer mcp_latency holds when the agent cancels, over stdio", () => {
  it("is matched by the cancellation: MCP_CANCELLED, client_cancelled, and the answer is never handed over", async () => {
    // Only the run's hand-over timer is faked: the wait ends when the test says so.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { log, client, received } = await stdioSetup([
      mcpFaults.latency("slow-answer", tool("held"), occurrences(1), 60_000),
    ]);
    onCleanup(() => {
      vi.useRealTimers();
    });
    const before = received.length;
    const abort = new AbortController();
    const held = client.callTool({ name: "held", arguments: {} }, undefined, { signal: abort.signal });
    held.catch(() => {});
    await eventually(() => log.operations("tools/call", "held").length === 1, { what: "held observed" });
    const heldId = log.operations("tools/call", "held")[0] as string;
    // The server answers `held` before `release`: once the agent has `release`'s answer, the
    // shim holds `held`'s for the fault's 60 s.
    expect(textOf(await client.callTool({ name: "release", arguments: {} }))).toBe("released");
    expect(log.terminal(heldId)).toBeUndefined();
    abort.abort("waited long enough");
    await expect(held).rejects.toThrow();
    await eventually(() => log.terminal(heldId) !== undefined, { what: "held ended" });
    expect(log.kindsOf(heldId)).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "MCP_CANCELLED",
      "OPERATION_FAILED",
    ]);
    expect(log.terminal(heldId)).toMatchObject({ failure_kind: "client_cancelled" });
    // The wait ends: the run hands the answer over; the shim has nothing left to send for it,
    // so the next answer the agent gets is the one to its next call.
    vi.advanceTimersByTime(60_000);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "next" } }))).toBe("next");
    expect(received.slice(before).map((message) => textOf((message as { result?: unknown }).result))).toEqual(
      ["released", "next"],
    );
    expect(log.kindsOf(heldId)).toHaveLength(4);
  });
});

interface HttpSetup {
  readonly proxyUrl: string;
  readonly log: PayloadLog;
}

async function startLateAnswerHttp(json: boolean): Promise<HttpSetup> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, created);
        },
      });
      await lateAnswerServer(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    for (const transport of sessions.values()) await transport.close().catch(() => {});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const log = new PayloadLog();
  const proxy = await startMcpHttpProxy({
    upstreamBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dependency: "tools",
    faults: [],
    sink: log,
    recordsCancellations: true,
  });
  onCleanup(() => proxy.close());
  return { proxyUrl: proxy.url, log };
}

interface SeenResponse {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Promise<string>;
}

/** A fetch for the SDK transport that keeps a copy of the response to the POST carrying `held`. */
function fetchKeepingHeld(seen: SeenResponse[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const carriesHeld = typeof init?.body === "string" && init.body.includes('"name":"held"');
    if (!carriesHeld || response.body === null) {
      if (carriesHeld) seen.push({ status: response.status, contentType: null, body: Promise.resolve("") });
      return response;
    }
    const [toClient, kept] = response.body.tee();
    seen.push({
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: new Response(kept).text(),
    });
    return new Response(toClient, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

describe("an answer after the agent's cancellation, over Streamable HTTP", () => {
  it.each([
    ["a buffered JSON answer becomes 202 Accepted without a body", true],
    ["an SSE stream ends before the event carrying the answer", false],
  ])("%s; the cancellation and one client_cancelled are recorded", async (_name, json) => {
    const { proxyUrl, log } = await startLateAnswerHttp(json);
    const seen: SeenResponse[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${proxyUrl}/mcp`), {
      fetch: fetchKeepingHeld(seen),
    });
    const { client, received } = await connect(transport);
    const before = received.length;
    const { heldId, released } = await cancelThenRelease(client, log);
    expect(textOf(released)).toBe("released");
    // The exchange that carried `held` ended (the server had answered it before `release`).
    expect(seen).toHaveLength(1);
    const [exchange] = seen as [SeenResponse];
    const body = await exchange.body;
    if (json) {
      expect(exchange.status).toBe(202);
      expect(body).toBe("");
    } else {
      expect(exchange.status).toBe(200);
      expect(exchange.contentType).toContain("text/event-stream");
      expect(body).not.toContain('"result"');
    }
    expect(received.slice(before)).toHaveLength(1);
    expect(received.slice(before)[0]).toMatchObject({ result: { content: [{ text: "released" }] } });
    expectRecordedOnce(log, heldId, null);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
  });
});
