/**
 * The same exchange through the HTTP proxy and through the MCP Streamable HTTP proxy: the agent
 * leaving early, the upstream failing, a refusal with Retry-After, a half-closed request. Both
 * paths relay the same bytes and record the same moment the same way, each in its protocol's
 * words (docs/evidence.md, "How an exchange ends").
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { EventPayload } from "../../src/events/types.js";
import { startMcpHttpProxy } from "../../src/mcp/http/proxy.js";
import { eventually } from "../helpers/eventually.js";
import { MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { PayloadLog } from "../helpers/mcp.js";
import { RawClient, type ReceivedResponse, splitResponses } from "../helpers/parity-wire.js";
import { onCleanup, startUpstream } from "../helpers/proxy-harness.js";

const CALL = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}';
const ANSWER = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';
const NOTIFICATION = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';
const REQUEST = Buffer.from(
  "POST /mcp HTTP/1.1\r\nHost: tools.test\r\nContent-Type: application/json\r\n" +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`,
  "latin1",
);

type Path = "http" | "mcp";

/** What the upstream does with the request; `release` lets a held answer go. */
interface UpstreamScript {
  answer(response: ServerResponse, released: Promise<void>): void;
}

/** What the agent does on its connection, given a way to learn that the upstream has the request. */
type AgentScript = (client: RawClient, upstreamHasIt: () => Promise<void>) => Promise<void>;

interface Seen {
  /** Final responses as the agent received them (status line, body, whether complete). */
  readonly responses: Pick<ReceivedResponse, "status" | "body" | "complete">[];
  /** The operation's events, ids and durations masked. */
  readonly events: Record<string, unknown>[];
  /** The upstream's answer was closed before it ended. */
  readonly upstreamCancelled: boolean;
  /** Every byte the agent received. */
  readonly bytes: Buffer;
}

function masked(payload: EventPayload): Record<string, unknown> {
  const {
    operation_id: _id,
    fingerprint: _fingerprint,
    ...rest
  } = payload as unknown as Record<string, unknown>;
  if ("duration_ms" in rest) rest.duration_ms = "masked";
  if ("body_hash" in rest) rest.body_hash = "masked";
  return rest;
}

async function through(path: Path, upstream: UpstreamScript, agent: AgentScript): Promise<Seen> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const cancelled: Promise<boolean>[] = [];
  const server = await startUpstream((_request, response) => {
    cancelled.push(
      new Promise((resolve) => response.once("close", () => resolve(!response.writableFinished))),
    );
    upstream.answer(response, released);
  });
  const sink = path === "http" ? new MemorySink() : new PayloadLog();
  const proxy =
    path === "http"
      ? await startFaultProxy(server.url, [], sink as MemorySink)
      : await startMcpHttpProxy({ upstreamBaseUrl: server.url, dependency: "llm", faults: [], sink });
  if (path === "mcp") onCleanup(() => proxy.close());
  const client = new RawClient(proxy.url);
  onCleanup(() => client.destroy());
  await client.connected;
  client.write(REQUEST);
  await agent(client, () => eventually(() => server.hits.length === 1, { what: "the request upstream" }));
  await eventually(
    () => sink.payloads.some((p) => p.kind === "OPERATION_SUCCEEDED" || p.kind === "OPERATION_FAILED"),
    { what: `the ${path} operation's terminal event` },
  );
  // Whatever the upstream does afterwards, the operation already has its one terminal event.
  release();
  const upstreamCancelled = await (cancelled[0] ?? Promise.resolve(false));
  await proxy.close();
  return {
    responses: splitResponses(client.bytes, ["POST"], client.isClosed)
      .filter((response) => !response.status.startsWith("HTTP/1.1 1"))
      .map(({ status, body, complete }) => ({ status, body, complete })),
    events: sink.payloads.map(masked),
    upstreamCancelled,
    bytes: client.bytes,
  };
}

const jsonAnswer: UpstreamScript = {
  answer(response, released) {
    void released.then(() => {
      if (!response.destroyed) response.writeHead(200, { "Content-Type": "application/json" }).end(ANSWER);
    });
  },
};

const streamOfOneEvent = (then: "hold" | "break"): UpstreamScript => ({
  answer(response) {
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    response.write(NOTIFICATION);
    if (then === "break") setImmediate(() => response.socket?.destroy());
  },
});

const leaveOnceUpstreamHasIt: AgentScript = async (client, upstreamHasIt) => {
  await upstreamHasIt();
  client.reset();
};

const leaveAfterTheEvent: AgentScript = async (client) => {
  await client.until((bytes) => bytes.includes("notifications/progress"));
  client.reset();
};

/** Reads until one whole final answer arrived, or the connection ended. */
const readTheAnswer: AgentScript = async (client) => {
  await client.until((bytes) =>
    splitResponses(bytes, ["POST"], false).some(
      (response) => response.complete && !response.status.startsWith("HTTP/1.1 1"),
    ),
  );
};

function terminalOf(seen: Seen): Record<string, unknown> {
  const terminal = seen.events.filter(
    (event) => event.kind === "OPERATION_SUCCEEDED" || event.kind === "OPERATION_FAILED",
  );
  expect(terminal).toHaveLength(1);
  return terminal[0] as Record<string, unknown>;
}

async function bothPaths(upstream: UpstreamScript, agent: AgentScript): Promise<Record<Path, Seen>> {
  return { http: await through("http", upstream, agent), mcp: await through("mcp", upstream, agent) };
}

const failed = (failure_kind: string, status_code: number | null, extra: Record<string, unknown> = {}) => ({
  kind: "OPERATION_FAILED",
  failure_kind,
  status_code,
  fault_related: false,
  retry_after_ms: null,
  upstream_status: null,
  rpc_error_code: null,
  relayed_events: null,
  ...extra,
});

describe("the HTTP proxy and MCP over HTTP record the same situations alike", () => {
  it("an agent that leaves before the upstream answers fails at once, status null, whatever the upstream says later", async () => {
    const seen = await bothPaths(jsonAnswer, leaveOnceUpstreamHasIt);
    expect(terminalOf(seen.http)).toEqual(failed("client_disconnected", null));
    expect(terminalOf(seen.mcp)).toEqual(failed("connection_closed", null));
    expect(seen.http.responses).toEqual([]);
    expect(seen.mcp.responses).toEqual([]);
  });

  it("an agent that leaves an event stream after one event: the event relayed is counted on both paths", async () => {
    const seen = await bothPaths(streamOfOneEvent("hold"), leaveAfterTheEvent);
    expect(terminalOf(seen.http)).toMatchObject({
      kind: "OPERATION_SUCCEEDED",
      status_code: 200,
      relayed_events: 1,
      closed_by_client: true,
    });
    // No JSON-RPC answer reached the agent: the session ended first, after one event.
    expect(terminalOf(seen.mcp)).toEqual(failed("connection_closed", null, { relayed_events: 1 }));
    expect(seen.http.upstreamCancelled).toBe(true);
    expect(seen.mcp.upstreamCancelled).toBe(true);
  });

  it("an agent that leaves before the event-stream head arrives: both paths fail it at once, status null, and cancel the stream", async () => {
    // The head goes out only once the operation has its terminal event: the proxy already knew the agent left.
    const lateStream: UpstreamScript = {
      answer(response, released) {
        void released.then(() => {
          if (response.destroyed) return;
          response.writeHead(200, { "Content-Type": "text/event-stream" });
          response.write(NOTIFICATION);
        });
      },
    };
    const seen = await bothPaths(lateStream, leaveOnceUpstreamHasIt);
    expect(terminalOf(seen.http)).toEqual(failed("client_disconnected", null));
    expect(terminalOf(seen.mcp)).toEqual(failed("connection_closed", null));
    expect(seen.http.responses).toEqual([]);
    expect(seen.mcp.responses).toEqual([]);
    // Nobody reads the stream any more: the proxy closes it upstream (the proxy itself is still up).
    expect(seen.http.upstreamCancelled).toBe(true);
    expect(seen.mcp.upstreamCancelled).toBe(true);
  });

  it("an obs-text byte in an event stream's header reaches the agent as the upstream sent it", async () => {
    const upstream: UpstreamScript = {
      answer(response) {
        // Node writes header values as latin1: "\u00e9" goes out as the single byte 0xE9.
        response.writeHead(200, { "Content-Type": "text/event-stream", "X-Latin": "caf\u00e9" });
        response.end(`data: ${ANSWER}\n\n`);
      },
    };
    const seen = await bothPaths(upstream, readTheAnswer);
    for (const path of ["http", "mcp"] as const) {
      const head = seen[path].bytes.subarray(0, seen[path].bytes.indexOf("\r\n\r\n") + 2);
      expect(head.includes(Buffer.from(": caf\xe9\r\n", "latin1"))).toBe(true);
    }
    expect(terminalOf(seen.mcp)).toMatchObject({
      kind: "OPERATION_SUCCEEDED",
      status_code: null,
      relayed_events: 1,
    });
    expect(seen.mcp.responses).toEqual(seen.http.responses);
    expect(seen.http.responses).toEqual([
      { status: "HTTP/1.1 200 OK", body: `data: ${ANSWER}\n\n`, complete: true },
    ]);
  });

  it("an event stream with an error status: HTTP relays it as a stream, MCP buffers it whole, its status decides", async () => {
    const upstream: UpstreamScript = {
      answer(response) {
        response.writeHead(503, { "Content-Type": "text/event-stream" });
        response.end(`data: ${ANSWER}\n\n`);
      },
    };
    const seen = await bothPaths(upstream, readTheAnswer);
    expect(terminalOf(seen.http)).toEqual(failed("upstream_http_error", 503, { relayed_events: 1 }));
    // The answer's event inside an error is not the request's answer: the status fails it.
    expect(terminalOf(seen.mcp)).toEqual(failed("upstream_http_error", 503));
    const framing = (path: Path) =>
      splitResponses(seen[path].bytes, ["POST"], false).map((response) => response.framing);
    expect(framing("http")).toEqual(["chunked"]);
    expect(framing("mcp")).toEqual(["length"]);
    expect(seen.mcp.responses).toEqual(seen.http.responses);
  });

  it("an upstream that breaks an event stream after one event: the agent sees the same cut stream", async () => {
    const seen = await bothPaths(streamOfOneEvent("break"), readTheAnswer);
    expect(terminalOf(seen.http)).toEqual(failed("upstream_stream_interrupted", 200, { relayed_events: 1 }));
    expect(terminalOf(seen.mcp)).toEqual(failed("connection_closed", null, { relayed_events: 1 }));
    expect(seen.mcp.responses).toEqual(seen.http.responses);
    expect(seen.http.responses).toEqual([{ status: "HTTP/1.1 200 OK", body: NOTIFICATION, complete: false }]);
  });

  it("an upstream that fails before answering: the same 502 and the same proxy_error", async () => {
    const upstream: UpstreamScript = { answer: (response) => response.socket?.destroy() };
    const seen = await bothPaths(upstream, readTheAnswer);
    expect(terminalOf(seen.http)).toEqual(failed("proxy_error", 502));
    expect(terminalOf(seen.mcp)).toEqual(failed("proxy_error", 502));
    expect(seen.mcp.responses).toEqual(seen.http.responses);
    expect(seen.http.responses[0]?.status).toBe("HTTP/1.1 502 Bad Gateway");
  });

  it("an upstream 429 with Retry-After: the same answer and the same wait recorded", async () => {
    const upstream: UpstreamScript = {
      answer(response) {
        response
          .writeHead(429, { "Content-Type": "application/json", "Retry-After": "2" })
          .end('{"error":"slow"}');
      },
    };
    const seen = await bothPaths(upstream, async (client) => {
      await client.until((bytes) => bytes.includes('{"error":"slow"}'));
    });
    expect(terminalOf(seen.http)).toEqual(failed("upstream_http_error", 429, { retry_after_ms: 2000 }));
    expect(terminalOf(seen.mcp)).toEqual(failed("upstream_http_error", 429, { retry_after_ms: 2000 }));
    expect(seen.mcp.responses).toEqual(seen.http.responses);
  });

  it("a half-closed request is answered on both paths, and the answer is recorded", async () => {
    const upstream: UpstreamScript = {
      answer: (response) => response.writeHead(200, { "Content-Type": "application/json" }).end(ANSWER),
    };
    const seen = await bothPaths(upstream, async (client) => {
      client.end();
      await client.closed;
    });
    expect(terminalOf(seen.http)).toMatchObject({ kind: "OPERATION_SUCCEEDED", status_code: 200 });
    expect(terminalOf(seen.mcp)).toMatchObject({ kind: "OPERATION_SUCCEEDED", status_code: null });
    expect(seen.http.responses).toEqual([{ status: "HTTP/1.1 200 OK", body: ANSWER, complete: true }]);
    expect(seen.mcp.responses).toEqual(seen.http.responses);
  });
});
