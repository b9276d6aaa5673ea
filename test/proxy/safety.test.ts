import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Recorder } from "../../src/events/recorder.js";
import { rawExchange, send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import {
  legacyFaults,
  onCleanup,
  schedule,
  startTestProxy,
  startUpstream,
} from "../helpers/proxy-harness.js";

function tempRecorder(): Recorder {
  const dir = mkdtempSync(join(tmpdir(), "agentchaos-proxy-"));
  const recorder = new Recorder(join(dir, "events.jsonl"), "test-run");
  onCleanup(() => {
    recorder.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return recorder;
}

describe("safe evidence", () => {
  it("never records user info, Authorization, query values or bodies", async () => {
    const upstream = await startUpstream((request, response) => {
      if (request.url?.includes("fail")) response.writeHead(500).end("upstream-secret-body");
      else response.writeHead(200, { "Set-Cookie": "session=upstream-secret-cookie" }).end("ok");
    });
    const recorder = tempRecorder();
    const base = upstream.url.replace("http://", "http://userinfo-user:userinfo-secret@");
    const proxy = await startTestProxy(`${base}/v1`, legacyFaults.error(503, schedule(2)), recorder);

    const request = {
      method: "POST",
      headers: { Authorization: "Bearer header-secret-token", Cookie: "c=cookie-secret" },
      body: '{"password":"body-secret"}',
    };
    await send(`${proxy.url}/login?token=query-secret-value`, request);
    await send(`${proxy.url}/login?token=query-secret-value`, request);
    await send(`${proxy.url}/login/fail?token=query-secret-value`, request);
    await send(`${proxy.url}/no-auth`);

    const recorded = readFileSync(recorder.path, "utf8");
    expect(recorded.split("\n").filter(Boolean)).toHaveLength(9);
    for (const secret of [
      "userinfo-user",
      "userinfo-secret",
      "header-secret-token",
      "cookie-secret",
      "query-secret-value",
      "token=",
      "body-secret",
      "upstream-secret",
    ]) {
      expect(recorded).not.toContain(secret);
    }
    // The workload's own Authorization goes upstream untouched; without one, base_url's user info is used.
    expect(upstream.hits[0]?.headers.authorization).toBe("Bearer header-secret-token");
    expect(upstream.hits.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from("userinfo-user:userinfo-secret").toString("base64")}`,
    );
  });

  it("prints nothing, not even a stack trace, for disconnects, dead upstreams and broken streams", async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const consoleSpies = (["error", "warn", "log", "info", "debug", "trace"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        written.push(args.map(String).join(" "));
      }),
    );
    onCleanup(() => {
      stderr.mockRestore();
      for (const spy of consoleSpies) spy.mockRestore();
    });

    const upstream = await startUpstream((request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: x\n\n");
      if (request.url === "/broken") setTimeout(() => response.socket?.destroy(), 10);
      else response.end();
    });
    const proxy = await startTestProxy(upstream.url, legacyFaults.disconnect(schedule(1)));
    const deadProxy = await startTestProxy("http://127.0.0.1:9");

    await sendWithNodeHttp(`${proxy.url}/first`);
    await sendWithNodeHttp(`${proxy.url}/broken`);
    await sendWithNodeHttp(`${deadProxy.url}/x`);
    await rawExchange(proxy.url, "GET /half HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nabc", 50);
    await rawExchange(proxy.url, "NOT HTTP AT ALL\r\n\r\n");

    expect(written).toEqual([]);
  });
});
