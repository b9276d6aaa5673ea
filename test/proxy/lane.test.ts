import { createHash } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { rawExchange, send } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  onCleanup,
  schedule,
  startTestProxy,
  startUpstream,
  target,
} from "../helpers/proxy-harness.js";

/** A TCP upstream that answers by hand: `onRequest` gets each request head (and its connection's index). */
async function startRawUpstream(
  onRequest: (socket: Socket, head: string, connectionIndex: number, requestIndex: number) => void,
): Promise<{ url: string; connections: number }> {
  const state = { url: "", connections: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const index = state.connections;
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffered = "";
    let requests = 0;
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
        const head = buffered.slice(0, end + 4);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        const total = end + 4 + (length === null ? 0 : Number(length[1]));
        if (buffered.length < total) return;
        buffered = buffered.slice(total);
        onRequest(socket, head, index, requests);
        requests += 1;
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
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Splits raw response bytes into responses by their length (every test response has one). */
function responses(bytes: Buffer): { status: number; body: string; head: string }[] {
  const text = bytes.toString("latin1");
  const found: { status: number; body: string; head: string }[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const head = text.slice(at, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    found.push({ status: Number(head.slice(9, 12)), head, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return found;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the fast lane", () => {
  it("hands a keep-alive connection to the full pipeline at the first request a fault targets, pipelined bytes included", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(
      upstream.url,
      legacyFaults.error(503, schedule(1), target("/target")),
      sink,
    );

    const { bytes } = await rawExchange(
      proxy.url,
      "GET /a HTTP/1.1\r\nHost: x\r\n\r\n" +
        "POST /target HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody" +
        "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );

    expect(responses(bytes).map((response) => response.status)).toEqual([200, 503, 200]);
    expect(upstream.hits.map((hit) => hit.url)).toEqual(["/a", "/b"]);
    expect(sink.ofKind("OPERATION_OBSERVED").map((event) => event.path)).toEqual(["/a", "/target", "/b"]);
    expect(sink.ofKind("FAULT_INJECTED")).toHaveLength(1);
    expect(sink.ofKind("OPERATION_OBSERVED")[1]?.body_hash).toBe(sha256("body"));
  });

  it("forwards a request whose head and body arrive one byte at a time", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);
    const { port } = new URL(proxy.url);
    const request =
      'PUT /slow?q=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"a":"b c"}';

    const received = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), "127.0.0.1", async () => {
        for (const byte of Buffer.from(request, "latin1")) {
          socket.write(Buffer.of(byte));
          await new Promise((next) => setImmediate(next));
        }
      });
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("close", () => resolve(Buffer.concat(chunks)));
    });

    expect(responses(received)[0]).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(upstream.hits[0]?.url).toBe("/slow?q=1");
    expect(upstream.hits[0]?.body.toString()).toBe('{"a":"b c"}');
    expect(sink.ofKind("OPERATION_OBSERVED")[0]).toMatchObject({
      method: "PUT",
      path: "/slow",
      query_hash: sha256("q=1"),
      body_hash: sha256('{"a":"b c"}'),
    });
  });

  it("leaves a chunked request body to the full pipeline, which records the whole body", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const { bytes } = await rawExchange(
      proxy.url,
      "POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
    );

    expect(responses(bytes)[0]?.status).toBe(200);
    expect(upstream.hits[0]?.body.toString()).toBe("abcde");
    expect(sink.ofKind("OPERATION_OBSERVED")[0]?.body_hash).toBe(sha256("abcde"));
  });

  it("hands over a connection whose chunked body arrives later, while the pipeline is still loading, and serves its next request", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);
    const { port } = new URL(proxy.url);

    const received = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write("POST /later HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
        setTimeout(() => socket.write("5\r\nhello\r\n"), 30);
        setTimeout(
          () => socket.write("0\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
          60,
        );
      });
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("close", () => resolve(Buffer.concat(chunks)));
    });

    expect(responses(received).map((response) => response.status)).toEqual([200, 200]);
    expect(upstream.hits.map((hit) => [hit.url, hit.body.toString()])).toEqual([
      ["/later", "hello"],
      ["/next", ""],
    ]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(2);
  });

  it("keeps an idle agent connection open: no keep-alive timeout is armed after an answer, in the lane and in the full pipeline", async () => {
    // Node's HTTP server closes a connection idle for its keep-alive timeout (5 s by default)
    // by arming the socket's timeout once a response has finished. The proxy's side of an agent
    // connection must carry none, whichever path answered.
    const accepted: Socket[] = [];
    const finished = new Set<unknown>();
    const onAccepted = (message: unknown) => accepted.push((message as { socket: Socket }).socket);
    const onFinished = (message: unknown) => finished.add((message as { socket: Socket }).socket);
    subscribe("net.server.socket", onAccepted);
    subscribe("http.server.response.finish", onFinished);
    onCleanup(() => {
      unsubscribe("net.server.socket", onAccepted);
      unsubscribe("http.server.response.finish", onFinished);
    });
    const upstream = await startUpstream();
    const proxy = await startTestProxy(
      upstream.url,
      legacyFaults.error(503, schedule(99), target("/faulted")),
    );
    const port = Number(new URL(proxy.url).port);
    const twoRequestsOneSocket = async (path: string, answeredByNodeHttp: boolean) => {
      const chunks: Buffer[] = [];
      let secondSent = false;
      let closedEarly = false;
      const socket = connect(port, "127.0.0.1");
      onCleanup(() => {
        socket.destroy();
      });
      socket.on("data", (chunk) => chunks.push(chunk));
      const closed = new Promise<void>((resolve) =>
        socket.on("close", () => {
          closedEarly = !secondSent;
          resolve();
        }),
      );
      await once(socket, "connect");
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      await eventually(() => Buffer.concat(chunks).toString().endsWith('{"ok":true}'), {
        what: `the first answer to ${path}`,
      });
      const proxySide = accepted.find(
        (side) => side.localPort === port && side.remotePort === socket.localPort,
      );
      // Node's server arms its keep-alive timeout right after it publishes the finish.
      if (answeredByNodeHttp)
        await eventually(() => finished.has(proxySide), { what: "the finished answer" });
      await new Promise((resolve) => setImmediate(resolve));
      const idleTimeout = proxySide?.timeout ?? 0;
      secondSent = true;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      await closed;
      const statuses = responses(Buffer.concat(chunks)).map((r) => r.status);
      return { found: proxySide !== undefined, idleTimeout, statuses, closedEarly };
    };

    const [lane, pipeline] = await Promise.all([
      twoRequestsOneSocket("/plain", false),
      twoRequestsOneSocket("/faulted", true),
    ]);

    expect(lane).toEqual({ found: true, idleTimeout: 0, statuses: [200, 200], closedEarly: false });
    expect(pipeline).toEqual({ found: true, idleTimeout: 0, statuses: [200, 200], closedEarly: false });
  });

  it("never sends a request twice: a reused upstream connection that closes before answering is a 502, as with undici", async () => {
    // Each upstream connection answers its first request and closes on its second, unanswered.
    const received: string[] = [];
    const upstream = await startRawUpstream((socket, head, _connection, request) => {
      received.push(head.slice(0, head.indexOf(" HTTP/")));
      if (request === 0) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
      else socket.destroy();
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const { bytes } = await rawExchange(
      proxy.url,
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nPOST /3 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );

    const answers = responses(bytes);
    expect(answers.map((response) => response.status)).toEqual([200, 502, 200]);
    expect(answers[1]?.body).toBe('{"error": "upstream request failed", "detail": "UpstreamClosedError"}');
    // The POST went out on a fresh connection; the GET that met the close was not sent again.
    expect(upstream.connections).toBe(2);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(2);
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      expect.objectContaining({ failure_kind: "proxy_error", status_code: 502 }),
    ]);
  });

  it("relays interim, chunked and close-delimited upstream responses with its own length", async () => {
    const upstream = await startRawUpstream((socket, head) => {
      if (head.startsWith("GET /chunked")) {
        socket.write(
          "HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Kept: 1\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n",
        );
      } else {
        socket.end("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close");
      }
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const chunked = await send(`${proxy.url}/chunked`);
    const untilClose = await send(`${proxy.url}/close`);

    expect(chunked).toMatchObject({ status: 200, text: "abcde" });
    expect(chunked.headers["content-length"]).toBe("5");
    expect(chunked.headers["x-kept"]).toBe("1");
    expect(chunked.headers["transfer-encoding"]).toBeUndefined();
    expect(untilClose).toMatchObject({ status: 200, text: "until close" });
    expect(sink.ofKind("OPERATION_SUCCEEDED").map((event) => event.status_code)).toEqual([200, 200]);
  });

  it("answers 502 and records proxy_error when the upstream's answer is not HTTP", async () => {
    const upstream = await startRawUpstream((socket) => socket.write("SSH-2.0-nope\r\n\r\n"));
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const response = await send(`${proxy.url}/x`);

    expect(response.status).toBe(502);
    expect(response.text).toBe(
      '{"error": "upstream request failed", "detail": "UpstreamInvalidResponseError"}',
    );
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "proxy_error",
      status_code: 502,
    });
  });

  it("records an operation still waiting for its upstream as client_disconnected when the proxy closes, and ends both connections", async () => {
    let upstreamHasIt = false;
    let upstreamClosed = false;
    const upstream = await startRawUpstream((socket) => {
      upstreamHasIt = true;
      socket.on("close", () => {
        upstreamClosed = true;
      });
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const exchange = rawExchange(proxy.url, "GET /never HTTP/1.1\r\nHost: x\r\n\r\n");
    await eventually(() => sink.ofKind("OPERATION_OBSERVED").length === 1 && upstreamHasIt);
    await proxy.close();
    const { bytes } = await exchange;

    expect(bytes.length).toBe(0);
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      expect.objectContaining({ failure_kind: "client_disconnected", status_code: null }),
    ]);
    await eventually(() => upstreamClosed);
  });

  it("records client_disconnected for a workload that closed its connection while its answer was awaited, never the answer that came later", async () => {
    let answer: (() => void) | null = null;
    const upstream = await startRawUpstream((socket) => {
      answer = () => socket.write("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const client = connect(Number(new URL(proxy.url).port), "127.0.0.1");
    client.on("error", () => {});
    onCleanup(() => void client.destroy());
    client.write("POST /late HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    await eventually(() => answer !== null);
    // A plain close (a FIN), as a client that gives up closes: the proxy finds it gone.
    client.destroy();
    await eventually(() => sink.ofKind("OPERATION_FAILED").length === 1);
    (answer as unknown as () => void)();

    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_disconnected",
      status_code: null,
    });
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);
  });
});
