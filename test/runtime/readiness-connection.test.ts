import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ReadinessLog, readinessTarget, waitUntilReady } from "../../src/runtime/readiness.js";
import { readinessAddress } from "../../src/runtime/readiness-connection.js";

const servers: (Server | TcpServer)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ("closeAllConnections" in server) server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listening<T extends Server | TcpServer>(server: T): Promise<number> {
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

describe("readinessAddress", () => {
  it("names the host and port of the readiness URL, port 80 when it names none", () => {
    expect(readinessAddress("http://127.0.0.1:8123/health")).toEqual({ host: "127.0.0.1", port: 8123 });
    expect(readinessAddress("http://localhost/health")).toEqual({ host: "localhost", port: 80 });
    expect(readinessAddress("http://[::1]:9000/v1/health")).toEqual({ host: "::1", port: 9000 });
  });
});

describe("a readiness attempt over the connection it opened first", () => {
  it("sends one GET with the readiness path and credentials, and closes that connection after the answer", async () => {
    const seen: { method: string | undefined; url: string | undefined; headers: IncomingHttpHeaders }[] = [];
    const closed: Promise<unknown>[] = [];
    const server = createServer((request, response) => {
      seen.push({ method: request.method, url: request.url, headers: request.headers });
      response.end("ok");
    });
    server.on("connection", (socket: Socket) => closed.push(once(socket, "close")));
    const port = await listening(server);
    const target = readinessTarget(`http://user:pa%20ss@127.0.0.1:${port}/api/?q=1`, "/health");
    expect(await waitUntilReady(target, 5_000, new AbortController().signal)).toEqual({ ready: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe("GET");
    expect(seen[0]?.url).toBe("/api/health");
    expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from("user:pa ss").toString("base64")}`);
    expect(seen[0]?.headers.connection).toBe("close");
    expect(closed).toHaveLength(1);
    await closed[0];
  });

  it("logs a connection that opens but never answers as a timed-out attempt", async () => {
    const held: Socket[] = [];
    const server = createTcpServer((socket) => {
      held.push(socket);
      socket.resume();
    });
    const port = await listening(server);
    const log: ReadinessLog = { polls: 0, last: null };
    const outcome = await waitUntilReady(
      { url: `http://127.0.0.1:${port}/health`, headers: {} },
      1_200,
      new AbortController().signal,
      log,
    );
    for (const socket of held) socket.destroy();
    expect(outcome).toEqual({ ready: false, reason: "timeout" });
    expect(log.polls).toBeGreaterThanOrEqual(1);
    expect(log.last).toEqual({ error: "timeout" });
  });

  it("logs a connection the server ends before answering as that attempt's error", async () => {
    const server = createTcpServer((socket) => socket.destroy());
    const port = await listening(server);
    const log: ReadinessLog = { polls: 0, last: null };
    await waitUntilReady(
      { url: `http://127.0.0.1:${port}/health`, headers: {} },
      300,
      new AbortController().signal,
      log,
    );
    expect(log.polls).toBeGreaterThan(1);
    expect(log.last).toEqual({ error: "ECONNRESET" });
  });
});
