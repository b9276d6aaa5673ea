import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { rawExchange, send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  onCleanup,
  schedule,
  startTestProxy,
  startUpstream,
} from "../helpers/proxy-harness.js";

describe("forwarding", () => {
  it("appends the raw path and query to base_url without its trailing slash and relays the response", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(201, { "Content-Type": "text/plain", "X-Upstream": "yes" }).end("created");
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(`${upstream.url}/v1/`, null, sink);

    const response = await send(`${proxy.url}/items/a%20b?z=1&a=%2F`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Client": "agent" },
      body: '{"n":1}',
    });

    expect(response.status).toBe(201);
    expect(response.text).toBe("created");
    expect(response.headers["x-upstream"]).toBe("yes");
    expect(response.headers["content-length"]).toBe("7");
    expect(upstream.hits).toHaveLength(1);
    expect(upstream.hits[0]).toMatchObject({ method: "POST", url: "/v1/items/a%20b?z=1&a=%2F" });
    expect(upstream.hits[0]?.headers["x-client"]).toBe("agent");
    expect(upstream.hits[0]?.body.toString()).toBe('{"n":1}');

    const [observed] = sink.ofKind("OPERATION_OBSERVED");
    expect(observed).toMatchObject({ protocol: "http", method: "POST", path: "/items/a b" });
    expect(observed?.query_hash).toBe(createHash("sha256").update("z=1&a=%2F").digest("hex"));
    expect(observed?.body_hash).toBe(createHash("sha256").update('{"n":1}').digest("hex"));
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([
      {
        kind: "OPERATION_SUCCEEDED",
        operation_id: observed?.operation_id,
        fingerprint: observed?.fingerprint,
        status_code: 201,
        duration_ms: expect.any(Number),
        fault_related: false,
      },
    ]);
  });

  it("forwards DELETE, GET, HEAD, OPTIONS, PATCH, POST and PUT", async () => {
    const upstream = await startUpstream((request, response) => {
      response
        .writeHead(200, { "X-Method": request.method ?? "" })
        .end(request.method === "HEAD" ? undefined : "ok");
    });
    const proxy = await startTestProxy(upstream.url);

    for (const method of ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]) {
      const response = await send(`${proxy.url}/m`, { method });
      expect(response.status).toBe(200);
      expect(response.headers["x-method"]).toBe(method);
    }
    expect(upstream.hits.map((hit) => hit.method)).toEqual([
      "DELETE",
      "GET",
      "HEAD",
      "OPTIONS",
      "PATCH",
      "POST",
      "PUT",
    ]);
  });

  it("answers other methods with 405 itself, records nothing and forwards nothing", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(503, schedule(1)), sink);

    const outcome = await sendWithNodeHttp(`${proxy.url}/dav`, { method: "PROPFIND" });

    expect("response" in outcome && outcome.response.status).toBe(405);
    expect(sink.events).toEqual([]);
    expect(upstream.hits).toHaveLength(0);
    expect((await send(`${proxy.url}/dav`)).status).toBe(503);
  });

  it("strips hop-by-hop headers, host and content-length towards the upstream", async () => {
    const upstream = await startUpstream();
    const proxy = await startTestProxy(upstream.url);

    await rawExchange(
      proxy.url,
      [
        "POST /h HTTP/1.1",
        "Host: proxy.example",
        "Connection: close",
        "Keep-Alive: timeout=99",
        "Proxy-Authorization: Basic cHJveHk=",
        "TE: trailers",
        "Trailer: X-Checksum",
        "X-Kept: 1",
        "Content-Length: 2",
        "",
        "hi",
      ].join("\r\n"),
    );

    expect(upstream.hits).toHaveLength(1);
    const hit = upstream.hits[0];
    const names = (hit?.rawHeaders ?? [])
      .filter((_, index) => index % 2 === 0)
      .map((name) => name.toLowerCase());
    for (const dropped of ["keep-alive", "proxy-authorization", "te", "trailer"])
      expect(names).not.toContain(dropped);
    expect(hit?.headers.host).toBe(new URL(upstream.url).host);
    expect(hit?.headers["x-kept"]).toBe("1");
    expect(hit?.headers["content-length"]).toBe("2");
    expect(hit?.body.toString()).toBe("hi");
  });

  it("strips hop-by-hop headers from the response and sets its own framing", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.setHeader("Keep-Alive", "timeout=99");
      response.setHeader("Proxy-Authenticate", "Basic");
      response.setHeader("Upgrade", "h2c");
      response.setHeader("Trailer", "X-Checksum");
      response.setHeader("X-Kept", "1");
      response.setHeader("Set-Cookie", ["a=1", "b=2"]);
      response.writeHead(200); // chunked: no content-length from the upstream
      response.write("part one, ");
      response.end("part two");
    });
    const proxy = await startTestProxy(upstream.url);

    const { bytes } = await rawExchange(proxy.url, "GET /r HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const [head = "", body] = bytes.toString("latin1").split("\r\n\r\n");
    const headers = head.toLowerCase();

    expect(body).toBe("part one, part two");
    expect(headers).not.toMatch(/proxy-authenticate|upgrade|trailer|timeout=99|transfer-encoding/);
    expect(headers).toMatch(/\r\ncontent-length: 18\r\n/);
    expect(headers).toMatch(/\r\nx-kept: 1\r\n/);
    expect(headers).toMatch(/\r\nset-cookie: a=1\r\nset-cookie: b=2\r\n/);
  });

  it("returns a redirect to the workload instead of following it", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(302, { Location: "/elsewhere" }).end();
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const response = await send(`${proxy.url}/start`);

    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/elsewhere");
    expect(upstream.hits.map((hit) => hit.url)).toEqual(["/start"]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ status_code: 302, fault_related: false });
  });

  it("ignores HTTP_PROXY and friends in the environment", async () => {
    const names = [
      "HTTP_PROXY",
      "http_proxy",
      "HTTPS_PROXY",
      "https_proxy",
      "ALL_PROXY",
      "NO_PROXY",
      "no_proxy",
    ];
    const saved = new Map(names.map((name) => [name, process.env[name]]));
    onCleanup(() => {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    for (const name of names)
      process.env[name] = name.toLowerCase().includes("no_proxy") ? "" : "http://127.0.0.1:9";

    const upstream = await startUpstream();
    const proxy = await startTestProxy(upstream.url);
    const outcome = await sendWithNodeHttp(`${proxy.url}/env`);

    expect("response" in outcome && outcome.response.status).toBe(200);
    expect(upstream.hits).toHaveLength(1);
  });

  it("records upstream 4xx as upstream_http_error and 502 as proxy_error, neither fault-related", async () => {
    const upstream = await startUpstream((request, response) => {
      response.writeHead(request.url === "/missing" ? 404 : 502).end("{}");
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    expect((await send(`${proxy.url}/missing`)).status).toBe(404);
    expect((await send(`${proxy.url}/gateway`)).status).toBe(502);

    expect(
      sink.ofKind("OPERATION_FAILED").map(({ failure_kind, status_code, fault_related }) => ({
        failure_kind,
        status_code,
        fault_related,
      })),
    ).toEqual([
      { failure_kind: "upstream_http_error", status_code: 404, fault_related: false },
      { failure_kind: "proxy_error", status_code: 502, fault_related: false },
    ]);
  });
});
