/**
 * A real Streamable HTTP MCP server on the official SDK (stateful sessions, JSON or SSE
 * responses) on 127.0.0.1, and SDK clients for it; closed after each test.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod/v4";
import { type RunningMcpProxy, startMcpHttpProxy } from "../../src/mcp/http/proxy.js";
import type { Fault } from "../../src/scenario/types.js";
import { PayloadLog } from "./mcp.js";
import { onCleanup } from "./proxy-harness.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function toolServer(): McpServer {
  const server = new McpServer({ name: "http-tools", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text: value }) => text(value));
  server.registerTool(
    "slow",
    { inputSchema: { ms: z.number(), text: z.string() } },
    async ({ ms, text: value }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text(value);
    },
  );
  server.registerTool("broken", { inputSchema: {} }, async () => ({ ...text("it broke"), isError: true }));
  return server;
}

export interface HttpMcpServer {
  readonly url: string;
  /** POST bodies that reached the server, as text. */
  readonly posts: string[];
}

/** An SDK Streamable HTTP server at `<url>/mcp`; `json` selects JSON responses over SSE. */
export async function startHttpMcpServer(json: boolean): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const posts: string[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> => {
    const sessionId = request.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      if (typeof sessionId === "string") {
        response.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      await toolServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response, body);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      if (request.method === "POST") {
        posts.push(raw);
        try {
          body = JSON.parse(raw);
        } catch {
          response.writeHead(400, { "Content-Type": "application/json" }).end('{"error":"not json"}');
          return;
        }
      }
      handle(request, response, body).catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    for (const transport of transports.values()) await transport.close().catch(() => {});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts };
}

export interface HttpTest {
  readonly server: HttpMcpServer;
  readonly proxy: RunningMcpProxy;
  readonly log: PayloadLog;
}

/** The server, and the MCP proxy in front of it (dependency `tools`). */
export async function startHttpTest(faults: readonly Fault[] = [], json = true): Promise<HttpTest> {
  const server = await startHttpMcpServer(json);
  const log = new PayloadLog();
  const proxy = await startMcpHttpProxy({
    upstreamBaseUrl: server.url,
    dependency: "tools",
    faults,
    sink: log,
  });
  onCleanup(() => proxy.close());
  return { server, proxy, log };
}

/** An SDK client over Streamable HTTP to `<base>/mcp`, closed after the test. */
export async function connectHttpClient(base: string): Promise<Client> {
  const client = new Client({ name: "http-agent", version: "1.0.0" });
  onCleanup(() => client.close().catch(() => {}));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}
