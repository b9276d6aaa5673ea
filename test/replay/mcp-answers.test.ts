import { describe, expect, it } from "vitest";
import { mcpHttpDialect } from "../../src/mcp/http/cassette-dialect.js";
import { eventWithAnswerId, withAnswerId } from "../../src/mcp/replay-answers.js";
import {
  StdioCassetteServer,
  type StdioMismatch,
  StdioSessionRecorder,
} from "../../src/mcp/stdio/cassette-lines.js";
import { CassetteBuilder } from "../../src/replay/cassette.js";

const request = (id: unknown, text: string, meta = false) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "add_note",
      arguments: { title: "t", text },
      ...(meta ? { _meta: { progressToken: 9 } } : {}),
    },
  });
const answer = (id: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "saved" }] } });

/** A cassette recorded from one session: one request, answered. */
function recordedCassette(text: string) {
  const builder = new CassetteBuilder({
    dependency: "notes",
    protocol: "mcp",
    match: ["method", "path", "body"],
    appendTo: null,
  });
  const recorder = new StdioSessionRecorder(builder, []);
  recorder.tapped("agent", request(7, text));
  recorder.tapped("agent", JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  recorder.tapped("server", answer(7));
  return { header: builder.header, interactions: builder.interactions };
}

describe("MCP answers replayed with the live id", () => {
  it("rewrites the id of a response in a JSON body and in the event that carries it, nothing else", () => {
    expect(JSON.parse(withAnswerId(answer(1), '"abc"')).id).toBe("abc");
    const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress" });
    expect(withAnswerId(notification, "5")).toBe(notification);
    const serverRequest = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "sampling/createMessage" });
    expect(withAnswerId(serverRequest, "5")).toBe(serverRequest);
    const event = `event: message\nid: e1\ndata: ${answer(1)}\n\n`;
    expect(eventWithAnswerId(event, "42")).toBe(`event: message\nid: e1\ndata: ${answer(42)}\n\n`);
  });
});

describe("an mcp_stdio dependency served from its cassette", () => {
  it("records one interaction per answered request, and serves it to the live id, _meta aside", () => {
    const cassette = recordedCassette("secret-body-text-313");
    expect(cassette.interactions).toHaveLength(1);
    expect(JSON.stringify(cassette.interactions[0])).not.toContain("secret-body-text-313");
    const mismatches: StdioMismatch[] = [];
    const server = new StdioCassetteServer(
      cassette,
      (mismatch) => mismatches.push(mismatch),
      () => false,
    );
    expect(server.serve(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).toEqual({
      answer: null,
      mismatchedId: null,
    });
    const served = server.serve(request("live-1", "secret-body-text-313", true));
    expect(served.mismatchedId).toBeNull();
    expect(JSON.parse(served.answer ?? "")).toEqual(JSON.parse(answer("live-1")));
    expect(mismatches).toEqual([]);
  });

  it("answers a request never recorded with -32603 naming the differing pointers, never the values", () => {
    const server = new StdioCassetteServer(
      recordedCassette("first text"),
      () => {},
      (line) => line.includes("CANARY"),
    );
    const mismatches: StdioMismatch[] = [];
    const watching = new StdioCassetteServer(
      recordedCassette("first text"),
      (m) => mismatches.push(m),
      (line) => line.includes("CANARY"),
    );
    const served = server.serve(request(12, "another text zqx"));
    expect(served.mismatchedId).toBe("12");
    const error = JSON.parse(served.answer ?? "");
    expect(error).toMatchObject({
      id: 12,
      error: {
        code: -32603,
        data: { type: "replay_mismatch", differing_pointers: ["/params/arguments/text"] },
      },
    });
    expect(served.answer).not.toContain("zqx");
    watching.serve(request(13, "a CANARY text"));
    expect(mismatches).toEqual([
      {
        method: "tools/call",
        path: "add_note",
        nearestFound: true,
        pointers: ["/params/arguments/text"],
        canaryCarried: true,
      },
    ]);
  });
});

describe("the Streamable HTTP cassette dialect", () => {
  const recorded = {
    method: "initialize",
    path: "",
    query_hash: "",
    body_hash: "",
    request_shape: {},
    status: 200,
    headers: { "content-type": "text/event-stream" },
    events: [{ offset_ms: 1, text: `event: message\ndata: ${answer(0)}\n\n` }],
  };

  it("answers each replayed initialize with the live id and a session id of its own", () => {
    const initialize = (id: number) =>
      Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: {} }));
    const first = mcpHttpDialect.keyOf("POST", "/mcp", initialize(1))?.answer(recorded);
    const second = mcpHttpDialect.keyOf("POST", "/mcp", initialize(2))?.answer(recorded);
    expect(first?.events?.[0]?.text).toBe(`event: message\ndata: ${answer(1)}\n\n`);
    expect(second?.events?.[0]?.text).toBe(`event: message\ndata: ${answer(2)}\n\n`);
    expect(first?.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers["mcp-session-id"]).not.toBe(first?.headers["mcp-session-id"]);
  });

  it("keys no notification, GET or DELETE, and answers them 202 and 405", () => {
    const notification = Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(mcpHttpDialect.keyOf("POST", "/mcp", notification)).toBeNull();
    expect(mcpHttpDialect.keyOf("GET", "/mcp", null)).toBeNull();
    expect(mcpHttpDialect.localAnswer("POST").status).toBe(202);
    expect(mcpHttpDialect.localAnswer("GET").status).toBe(405);
    expect(mcpHttpDialect.localAnswer("DELETE").status).toBe(405);
  });
});
