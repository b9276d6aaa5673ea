import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ReadinessLog,
  ReadinessWake,
  readinessTarget,
  waitUntilReady,
} from "../../src/runtime/readiness.js";
import { eventually } from "../helpers/eventually.js";
import { tempDir } from "../helpers/temp.js";

let server: Server | null = null;
afterEach(async () => {
  vi.useRealTimers();
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

describe("readinessTarget", () => {
  it("appends the readiness path to the base URL's path prefix, dropping query and fragment", () => {
    expect(readinessTarget("http://127.0.0.1:8080/v1/?q=1#f", "/health")).toEqual({
      url: "http://127.0.0.1:8080/v1/health",
      headers: {},
    });
    expect(readinessTarget("http://127.0.0.1:8080", "/health").url).toBe("http://127.0.0.1:8080/health");
  });

  it("sends URL user information as Basic credentials, not in the URL", () => {
    const target = readinessTarget("http://ada:s%3Dcret@127.0.0.1:8080", "/health");
    expect(target.url).toBe("http://127.0.0.1:8080/health");
    expect(target.headers).toEqual({
      authorization: `Basic ${Buffer.from("ada:s=cret").toString("base64")}`,
    });
  });
});

describe("waitUntilReady", () => {
  it("keeps polling through 503 answers until a 2xx arrives", async () => {
    const url = await serve((hits) => (hits < 4 ? 503 : 200));
    expect(await waitUntilReady({ url, headers: {} }, 5000, new AbortController().signal)).toEqual({
      ready: true,
    });
  });

  it("accepts a redirect status as ready without following it", async () => {
    const url = await serve(() => 302);
    expect(await waitUntilReady({ url, headers: {} }, 5000, new AbortController().signal)).toEqual({
      ready: true,
    });
  });

  it("gives up with a timeout when nothing listens", async () => {
    const url = await serve(() => 200);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    expect(await waitUntilReady({ url, headers: {} }, 300, new AbortController().signal)).toEqual({
      ready: false,
      reason: "timeout",
    });
  });

  it("logs how many polls completed and what the last one got", async () => {
    const url = await serve(() => 404);
    const log = { polls: 0, last: null };
    expect(await waitUntilReady({ url, headers: {} }, 300, new AbortController().signal, log)).toEqual({
      ready: false,
      reason: "timeout",
    });
    expect(log.polls).toBeGreaterThan(1);
    expect(log.last).toEqual({ status: 404 });
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    const refused = { polls: 0, last: null };
    await waitUntilReady({ url, headers: {} }, 200, new AbortController().signal, refused);
    expect(refused.last).toEqual({ error: "ECONNREFUSED" });
  });

  it("stops waiting when aborted", async () => {
    const stop = new AbortController();
    // Aborted while it waits: right after answering its second poll.
    const url = await serve((hits) => {
      if (hits === 2) setImmediate(() => stop.abort());
      return 503;
    });
    expect(await waitUntilReady({ url, headers: {} }, 10_000, stop.signal)).toEqual({
      ready: false,
      reason: "aborted",
    });
  });

  // The pauses run on faked timers (the probes are real requests): each pause lasts until the
  // test moves the clock, so the test sees exactly which pause comes next. One poll with real
  // timers first (answered 200, not counted) loads what the first request of a process loads.
  // `Date` is faked too: a pause counts from the start of its attempt, so on a real clock a slow
  // probe (a busy machine) would shorten it.
  async function warmUp(url: string): Promise<void> {
    expect(await waitUntilReady({ url, headers: {} }, 5000, new AbortController().signal)).toEqual({
      ready: true,
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  }

  it("polls again after 5, 10, 20 and 40 ms, then every 50 ms", async () => {
    let hits = -1;
    const url = await serve(() => {
      hits += 1;
      return hits === 0 || hits >= 7 ? 200 : 503;
    });
    await warmUp(url);
    // The client has taken each answer (not only the server sent it) once the log counts it.
    const log = { polls: 0, last: null };
    const outcome = waitUntilReady({ url, headers: {} }, 60_000, new AbortController().signal, log);
    for (const [hit, pause] of [
      [1, 5],
      [2, 10],
      [3, 20],
      [4, 40],
      [5, 50],
      [6, 50],
    ] as const) {
      await eventually(() => log.polls === hit && vi.getTimerCount() === 1, { what: `poll ${hit} answered` });
      vi.advanceTimersByTime(pause - 1);
      expect(hits).toBe(hit);
      vi.advanceTimersByTime(1);
    }
    expect(await outcome).toEqual({ ready: true });
  });

  it("polls again at once when the dependency prints something, not at the next tick", async () => {
    const wake = new ReadinessWake();
    let hits = -1;
    const url = await serve(() => {
      hits += 1;
      return hits === 0 || hits >= 7 ? 200 : 503;
    });
    await warmUp(url);
    const log = { polls: 0, last: null };
    const outcome = waitUntilReady({ url, headers: {} }, 60_000, new AbortController().signal, log, wake);
    for (const [hit, pause] of [
      [1, 5],
      [2, 10],
      [3, 20],
      [4, 40],
      [5, 50],
    ] as const) {
      await eventually(() => log.polls === hit && vi.getTimerCount() === 1, { what: `poll ${hit} answered` });
      vi.advanceTimersByTime(pause);
    }
    // Poll 6 is answered and a 50 ms pause begins; the dependency prints its "listening" line.
    await eventually(() => log.polls === 6 && vi.getTimerCount() === 1, { what: "poll 6 answered" });
    wake.nudge();
    vi.advanceTimersByTime(5);
    expect(await outcome).toEqual({ ready: true });
    expect(hits).toBe(7);
  });
});

describe("waitUntilReady on an https URL", () => {
  it("polls over TLS (loaded for the first https poll): a certificate it does not trust is the poll's error", async () => {
    const folder = await tempDir("agentchaos-readiness-tls-");
    const tlsServer = await (async () => {
      const key = join(folder.path, "key.pem");
      const cert = join(folder.path, "cert.pem");
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2"].concat([
          "-subj",
          "/CN=127.0.0.1",
        ]),
        { stdio: "ignore" },
      );
      return createHttpsServer(
        { key: await readFile(key), cert: await readFile(cert) },
        (_request, response) => response.end(),
      );
    })();
    try {
      await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
      const url = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/health`;
      const log: ReadinessLog = { polls: 0, last: null };
      const outcome = await waitUntilReady({ url, headers: {} }, 300, new AbortController().signal, log);
      expect(outcome).toEqual({ ready: false, reason: "timeout" });
      expect(log.polls).toBeGreaterThan(0);
      // A plain-http poll of a TLS port gets no certificate error; an https one does.
      expect(log.last).toEqual({ error: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      await folder.remove();
    }
  });
});
