import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import {
  LegacyMemorySink,
  legacyFaults,
  onCleanup,
  schedule,
  startTestProxy,
  target,
} from "../helpers/proxy-harness.js";

/**
 * How the upstream treats a connection after answering its first request (with keep-alive):
 * `dies` reads the whole second request and destroys the connection without answering;
 * `closes-idle` ends the connection at once, before any second request; `stays-idle` keeps it
 * (the test closes it through `idle`).
 */
type Behaviour = "dies" | "closes-idle" | "stays-idle";

interface RawUpstream {
  readonly url: string;
  /** Every request received, in order, on any connection: `METHOD /path`. */
  readonly received: string[];
  /** Connections accepted, and those fully closed since. */
  readonly connections: { accepted: number; closed: number };
  /** Connections whose first answer was handed to the system, waiting for a next request. */
  readonly idle: Socket[];
}

async function startRawUpstream(behaviour: Behaviour): Promise<RawUpstream> {
  const state: RawUpstream = { url: "", received: [], connections: { accepted: 0, closed: 0 }, idle: [] };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    state.connections.accepted += 1;
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      state.connections.closed += 1;
    });
    socket.on("error", () => {});
    let buffered = Buffer.alloc(0);
    let answered = 0;
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
        const head = buffered.toString("latin1", 0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        state.received.push(head.split(" ", 2).join(" "));
        if (answered > 0) {
          // The whole request has arrived; the upstream dies before answering it.
          socket.destroy();
          return;
        }
        answered += 1;
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=60\r\n\r\nok", () =>
          state.idle.push(socket),
        );
        if (behaviour === "closes-idle") socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { ...state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface RawResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * One keep-alive workload connection to the proxy: sends a request (then runs `afterWrite` at
 * once), resolves with its whole response.
 */
async function workloadConnection(
  proxyUrl: string,
): Promise<(request: string, afterWrite?: () => void) => Promise<RawResponse>> {
  const socket = connect(Number(new URL(proxyUrl).port), "127.0.0.1");
  onCleanup(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let buffered = "";
  let waiting: ((response: RawResponse) => void) | null = null;
  socket.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("latin1");
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0 || waiting === null) return;
    const head = buffered.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    const response = { status: Number(head.slice(9, 12)), body: buffered.slice(end + 4, end + 4 + length) };
    buffered = buffered.slice(end + 4 + length);
    const resolve = waiting;
    waiting = null;
    resolve(response);
  });
  return (request, afterWrite) =>
    new Promise((resolve) => {
      waiting = resolve;
      socket.write(request);
      afterWrite?.();
    });
}

function requestText(method: string, path: string): string {
  const body = method === "PUT" || method === "POST" ? '{"n":1}' : "";
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

// The full pipeline takes a connection from its first request a fault targets; this fault never fires.
const paths = [
  { name: "the fast lane", fault: () => null },
  { name: "the full pipeline", fault: () => legacyFaults.error(503, schedule(99), target("/warm")) },
];

describe.each(paths)("$name never sends a request twice", ({ fault }) => {
  it.each(["DELETE", "PUT", "POST", "GET"])(
    "a %s the upstream read on a reused connection and then died is received once, answered 502 and recorded failed",
    async (method) => {
      const upstream = await startRawUpstream("dies");
      const sink = new LegacyMemorySink();
      const proxy = await startTestProxy(upstream.url, fault(), sink);
      const exchange = await workloadConnection(proxy.url);

      expect(await exchange(requestText("GET", "/warm"))).toEqual({ status: 200, body: "ok" });
      const answer = await exchange(requestText(method, "/item"));

      expect(answer.status).toBe(502);
      expect(answer.body).toMatch(/^\{"error": "upstream request failed", "detail": "\w+"\}$/);
      expect(upstream.received).toEqual(["GET /warm", `${method} /item`]);
      expect(upstream.connections.accepted).toBe(1);
      expect(sink.ofKind("OPERATION_OBSERVED").map((event) => `${event.method} ${event.path}`)).toEqual([
        "GET /warm",
        `${method} /item`,
      ]);
      const item = sink.ofKind("OPERATION_OBSERVED")[1]?.operation_id as string;
      expect(sink.kindsOf(item)).toEqual(["OPERATION_OBSERVED", "OPERATION_FAILED"]);
      expect(sink.ofKind("OPERATION_FAILED")).toEqual([
        expect.objectContaining({ operation_id: item, failure_kind: "proxy_error", status_code: 502 }),
      ]);
    },
  );

  it.each(["DELETE", "PUT", "POST", "GET"])(
    "a %s after the upstream closed the idle connection goes out once, on a new connection",
    async (method) => {
      const upstream = await startRawUpstream("closes-idle");
      const sink = new LegacyMemorySink();
      const proxy = await startTestProxy(upstream.url, fault(), sink);
      const exchange = await workloadConnection(proxy.url);

      expect(await exchange(requestText("GET", "/warm"))).toEqual({ status: 200, body: "ok" });
      // Both sides of the first connection are closed: the proxy has seen the upstream's close.
      await eventually(() => upstream.connections.closed === 1);
      const answer = await exchange(requestText(method, "/item"));

      expect(answer).toEqual({ status: 200, body: "ok" });
      expect(upstream.received).toEqual(["GET /warm", `${method} /item`]);
      expect(upstream.connections.accepted).toBe(2);
      expect(sink.ofKind("OPERATION_SUCCEEDED").map((event) => event.status_code)).toEqual([200, 200]);
      expect(sink.ofKind("OPERATION_FAILED")).toEqual([]);
    },
  );

  it.each(["DELETE", "PUT", "POST", "GET"])(
    "a %s crossing the upstream's close of the idle connection goes out once, on a new connection",
    async (method) => {
      const upstream = await startRawUpstream("stays-idle");
      const sink = new LegacyMemorySink();
      const proxy = await startTestProxy(upstream.url, fault(), sink);
      const exchange = await workloadConnection(proxy.url);

      expect(await exchange(requestText("GET", "/warm"))).toEqual({ status: 200, body: "ok" });
      await eventually(() => upstream.idle.length === 1);
      // The request reaches the proxy first, the upstream's close right after, before the proxy
      // has handled either: it must see the close before it writes a byte of the request.
      const answer = await exchange(requestText(method, "/item"), () => upstream.idle[0]?.destroy());

      expect(answer).toEqual({ status: 200, body: "ok" });
      expect(upstream.received).toEqual(["GET /warm", `${method} /item`]);
      expect(upstream.connections.accepted).toBe(2);
      expect(sink.ofKind("OPERATION_SUCCEEDED").map((event) => event.status_code)).toEqual([200, 200]);
    },
  );
});
