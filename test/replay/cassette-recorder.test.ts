import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startRecordingUpstream } from "../../src/proxy/cassette-recorder.js";
import type { LoopbackUpstream } from "../../src/proxy/cassette-request.js";
import { CassetteBuilder } from "../../src/replay/cassette.js";
import { eventually } from "../helpers/eventually.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function live(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function recording(
  baseUrl: string,
  redact: string[] = [],
): Promise<{ builder: CassetteBuilder; upstream: LoopbackUpstream }> {
  const builder = new CassetteBuilder({
    dependency: "api",
    protocol: "http",
    match: ["method", "path", "body"],
    appendTo: null,
  });
  const upstream = await startRecordingUpstream({ baseUrl, builder, ignoreJsonFields: [], redact });
  cleanups.push(() => upstream.close());
  return { builder, upstream };
}

describe("the recording upstream", () => {
  it("records the live answer with the request only as hashes, asking for no content coding", async () => {
    let encoding: string | undefined;
    const base = await live((request, response) => {
      encoding = request.headers["accept-encoding"];
      response.writeHead(201, {
        "content-type": "application/json",
        "x-request-id": "q1",
        "set-cookie": "s=1",
      });
      response.end('{"id":7,"token":"abc"}');
    });
    const { builder, upstream } = await recording(`${base}/v1`, ["/token"]);
    const answer = await fetch(`${upstream.url}/items?page=2`, {
      method: "POST",
      headers: { "accept-encoding": "gzip", "content-type": "application/json" },
      body: '{"name":"x"}',
    });
    expect(answer.status).toBe(201);
    // The agent gets the answer as the upstream sent it; only the cassette is redacted.
    expect(await answer.text()).toBe('{"id":7,"token":"abc"}');
    expect(encoding).toBe("identity");
    await eventually(() => builder.interactions.length === 1);
    const [recorded] = builder.interactions;
    expect(recorded).toMatchObject({
      method: "POST",
      path: "/items",
      status: 201,
      headers: { "content-type": "application/json", "x-request-id": "q1" },
      body: '{"id":7,"token":"[redacted]"}',
    });
    expect(Object.keys(recorded?.request_shape ?? {})).toEqual(["/name"]);
  });

  it("records the whole stream the upstream sent even when the proxy's side stops reading", async () => {
    const base = await live((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      const next = (): void => {
        n += 1;
        response.write(`data: ${n}\n\n`);
        if (n === 5) response.end();
        else setTimeout(next, 5);
      };
      next();
    });
    const { builder, upstream } = await recording(base);
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(`${upstream.url}/sse`, (response) => {
        response.once("data", () => {
          // Like a stream fault cutting the agent's response after its first bytes.
          request.destroy();
          resolve();
        });
      });
      request.on("error", () => undefined);
      request.end();
      setTimeout(() => reject(new Error("no data")), 5000).unref();
    });
    await eventually(() => builder.interactions.length === 1);
    expect(builder.interactions[0]?.events?.map((event) => event.text)).toEqual([
      "data: 1\n\n",
      "data: 2\n\n",
      "data: 3\n\n",
      "data: 4\n\n",
      "data: 5\n\n",
    ]);
  });

  it("answers the proxy's own 502 when the live upstream cannot be reached, and records nothing", async () => {
    const base = await live(() => undefined);
    const port = new URL(base).port;
    await cleanups.pop()?.();
    const { builder, upstream } = await recording(`http://127.0.0.1:${port}`);
    const answer = await fetch(`${upstream.url}/x`);
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ error: "upstream request failed" });
    expect(builder.interactions).toHaveLength(0);
  });
});
