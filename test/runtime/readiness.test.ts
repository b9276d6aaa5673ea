import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntilReady } from "../../src/runtime/readiness.js";

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server?.closeAllConnections();
  server = null;
});

async function serve(handler: (hits: number) => number): Promise<string> {
  let hits = 0;
  server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(handler(hits), { location: "/elsewhere" });
    response.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

describe("waitUntilReady", () => {
  it("keeps polling through 503 answers until a 2xx arrives", async () => {
    const url = await serve((hits) => (hits < 4 ? 503 : 200));
    expect(await waitUntilReady(url, 5000, new AbortController().signal)).toEqual({ ready: true });
  });

  it("accepts a redirect status as ready without following it", async () => {
    const url = await serve(() => 302);
    expect(await waitUntilReady(url, 5000, new AbortController().signal)).toEqual({ ready: true });
  });

  it("gives up with a timeout when nothing listens", async () => {
    const url = await serve(() => 200);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    expect(await waitUntilReady(url, 300, new AbortController().signal)).toEqual({
      ready: false,
      reason: "timeout",
    });
  });

  it("stops waiting when aborted", async () => {
    const url = await serve(() => 503);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    expect(await waitUntilReady(url, 10_000, stop.signal)).toEqual({ ready: false, reason: "aborted" });
  });
});
