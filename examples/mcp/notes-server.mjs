#!/usr/bin/env node
// A small notes server on the official MCP SDK, for the MCP examples: offline, in memory,
// seeded with three notes. Tools: list_notes, search_notes {query}, read_note {title},
// add_note {title, text}. It never logs arguments or results.
// Usage: node notes-server.mjs                        serve MCP over stdio
//        node notes-server.mjs --http --port N        serve Streamable HTTP at /mcp (GET /health for readiness)
import { randomUUID } from "node:crypto";
import http from "node:http";
import { parseArgs } from "node:util";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod/v4";

const notes = new Map([
  ["retries", "Retry idempotent calls with backoff; honour Retry-After."],
  ["timeouts", "Every remote call needs a deadline, and a cancellation when it passes."],
  ["reconnects", "A closed transport is not the end: reconnect, then retry what was in flight."],
]);

const text = (value) => ({ content: [{ type: "text", text: value }] });

function notesServer() {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool("list_notes", { description: "Titles of every note", inputSchema: {} }, async () =>
    text([...notes.keys()].join("\n")),
  );
  server.registerTool(
    "search_notes",
    { description: "Titles of the notes whose text mentions the query", inputSchema: { query: z.string() } },
    async ({ query }) => {
      const needle = query.toLowerCase();
      const hits = [...notes].filter(([title, body]) => `${title} ${body}`.toLowerCase().includes(needle));
      return text(hits.map(([title]) => title).join("\n"));
    },
  );
  server.registerTool(
    "read_note",
    { description: "The text of one note", inputSchema: { title: z.string() } },
    async ({ title }) =>
      notes.has(title) ? text(notes.get(title)) : { ...text(`no note titled ${title}`), isError: true },
  );
  server.registerTool(
    "add_note",
    { description: "Saves a note", inputSchema: { title: z.string(), text: z.string() } },
    async ({ title, text: body }) => {
      notes.set(title, body);
      return text("saved");
    },
  );
  return server;
}

function usage(message) {
  process.stderr.write(`notes-server: ${message} (usage: node notes-server.mjs [--http --port N])\n`);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({ options: { http: { type: "boolean" }, port: { type: "string" } } }));
} catch {
  usage("invalid arguments");
}

if (!options.http) {
  await notesServer().connect(new StdioServerTransport());
} else {
  if (options.port === undefined || !/^\d+$/.test(options.port)) usage("--http needs --port N");
  const sessions = new Map();
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/health") {
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (path !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    try {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (transport === undefined && typeof id === "string") {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
        return;
      }
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => sessions.set(sessionId, created),
        });
        created.onclose = () => sessions.delete(created.sessionId);
        await notesServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  server.listen(Number(options.port), "127.0.0.1");
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
