import { afterEach, describe, expect, it } from "vitest";
import { runProgram, startServer, stopAll } from "./helpers/programs.js";
import {
  gapBefore,
  OK,
  type ScriptedServer,
  type Step,
  startScriptedServer,
} from "./helpers/scripted-server.js";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await stopAll();
});

async function scripted(steps: Step[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(steps);
  servers.push(server);
  return server;
}

// The example's own request timeout (150 ms) is shorter than a loaded machine may take to answer
// a plain request; only the tests of the timeout itself set one that close.
const runAgent = (env: Record<string, string>) =>
  runProgram("demo-agent.mjs", { DEMO_TIMEOUT_MS: "10000", ...env });
const UNAVAILABLE: Step = { status: 503 };

describe("the demo agent against the fake API", () => {
  it("loads and refreshes customer 123 and exits 0", async () => {
    const { url } = await startServer("fake-api.mjs");
    const result = await runAgent({ CUSTOMER_API_URL: url });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual(["Loaded customer 123", "Refreshed customer 123 on attempt 1"]);
  });

  it("names the cycle in its message when it refreshes more than once", async () => {
    const { url } = await startServer("fake-api.mjs");
    const result = await runAgent({ CUSTOMER_API_URL: `${url}/`, DEMO_REFRESHES: "2" });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([
      "Loaded customer 123",
      "Refreshed customer 123 in cycle 1 on attempt 1",
      "Refreshed customer 123 in cycle 2 on attempt 1",
    ]);
  });
});

describe("the demo agent's retry policy", () => {
  it("retries a 503 after the backoff and reports the attempt that succeeded", async () => {
    const server = await scripted([OK, UNAVAILABLE, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_BACKOFF_MS: "200" });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([
      "Loaded customer 123",
      "Attempt 1 failed: HTTPStatusError",
      "Refreshed customer 123 on attempt 2",
    ]);
    expect(server.requests.map((r) => r.path)).toEqual(Array(3).fill("/customer/123"));
    expect(gapBefore(server, 2)).toBeGreaterThanOrEqual(190);
  });

  it("doubles the backoff after each failed attempt", async () => {
    const server = await scripted([OK, UNAVAILABLE, UNAVAILABLE, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_BACKOFF_MS: "150" });
    expect(result.code).toBe(0);
    expect(result.lines.at(-1)).toBe("Refreshed customer 123 on attempt 3");
    expect(gapBefore(server, 2)).toBeGreaterThanOrEqual(140);
    expect(gapBefore(server, 3)).toBeGreaterThanOrEqual(290);
  });

  it("exits with DEMO_EXHAUSTED_EXIT_CODE after the last failed attempt", async () => {
    const server = await scripted([OK, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_EXHAUSTED_EXIT_CODE: "7" });
    expect(result.code).toBe(7);
    expect(result.lines).toEqual([
      "Loaded customer 123",
      "Attempt 1 failed: HTTPStatusError",
      "Attempt 2 failed: HTTPStatusError",
      "Attempt 3 failed: HTTPStatusError",
    ]);
    expect(server.requests).toHaveLength(4);
  });

  it("exits 1 without retrying when the single attempt allowed fails", async () => {
    const server = await scripted([OK, UNAVAILABLE]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_MAX_ATTEMPTS: "1" });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual(["Loaded customer 123", "Attempt 1 failed: HTTPStatusError"]);
    expect(server.requests).toHaveLength(2);
  });

  it("sleeps the integer Retry-After of a 429 instead of the backoff", async () => {
    const server = await scripted([OK, { status: 429, headers: { "Retry-After": "1" } }, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_BACKOFF_MS: "10" });
    expect(result.code).toBe(0);
    expect(result.lines[1]).toBe("Attempt 1 failed: HTTPStatusError");
    expect(gapBefore(server, 2)).toBeGreaterThanOrEqual(950);
  });

  it("treats a body that is not JSON as a failed attempt", async () => {
    const server = await scripted([OK, { status: 200, body: '{"error":"injected by Agent Chaos"' }, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url });
    expect(result.code).toBe(0);
    expect(result.lines[1]).toBe("Attempt 1 failed: JSONDecodeError");
  });

  it("treats a dropped connection as a transport error", async () => {
    const server = await scripted([OK, { drop: true }, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_TIMEOUT_MS: "1000" });
    expect(result.code).toBe(0);
    expect(result.lines[1]).toBe("Attempt 1 failed: TransportError");
  });

  it("gives up on a slow response after DEMO_TIMEOUT_MS", async () => {
    // The second request is never answered: only the agent's own timeout lets it go on.
    const server = await scripted([OK, { hang: true }, OK]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url, DEMO_TIMEOUT_MS: "300" });
    expect(result.code).toBe(0);
    expect(result.lines[1]).toBe("Attempt 1 failed: TimeoutError");
    // The retry comes 300 ms (the time limit) and 50 ms (the backoff) after the hung request was
    // sent; the server sees the hung request a little after it was sent (more on a busy machine),
    // so the gap it measures is at least the time limit less that delay, far above the backoff
    // alone that an agent which did not wait would show.
    expect(gapBefore(server, 2)).toBeGreaterThanOrEqual(250);
  });

  it("crashes with exit 1 and no retry when the first load fails", async () => {
    const server = await scripted([UNAVAILABLE]);
    const result = await runAgent({ CUSTOMER_API_URL: server.url });
    expect(result.code).toBe(1);
    expect(result.lines).not.toContain("Loaded customer 123");
    expect(server.requests).toHaveLength(1);
  });

  it("exits 2 with one line when CUSTOMER_API_URL is missing", async () => {
    const result = await runAgent({ CUSTOMER_API_URL: "" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
