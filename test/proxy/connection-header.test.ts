import { describe, expect, it } from "vitest";
import { clientResponseHeaders, upstreamRequestHeaders } from "../../src/support/http-headers.js";
import { rawExchange } from "../helpers/proxy-client.js";
import { startTestProxy, startUpstream } from "../helpers/proxy-harness.js";

describe("headers named in Connection are hop-by-hop", () => {
  it("are not forwarded upstream, whatever their case and spacing", () => {
    const raw = [
      "Connection",
      "keep-alive, X-Hop-One",
      "connection",
      " x-hop-two ,, ",
      "X-Hop-One",
      "secret-1",
      "X-HOP-TWO",
      "secret-2",
      "X-Kept",
      "yes",
    ];
    expect(upstreamRequestHeaders(raw)).toEqual(["X-Kept", "yes"]);
  });

  it("are not relayed back to the workload", () => {
    expect(
      clientResponseHeaders({ connection: "close, X-Upstream-Hop", "x-upstream-hop": "v", "x-kept": "k" }),
    ).toEqual({ "x-kept": "k" });
  });

  it("never reach a real upstream through the proxy", async () => {
    const upstream = await startUpstream((_request, response) => {
      response
        .writeHead(200, { Connection: "X-Back", "X-Back": "hop", "Content-Type": "text/plain" })
        .end("ok");
    });
    const proxy = await startTestProxy(upstream.url);
    const { bytes } = await rawExchange(
      proxy.url,
      "GET /item HTTP/1.1\r\nHost: x\r\nConnection: close, X-Planted-Hop\r\nX-Planted-Hop: planted-secret\r\nX-Kept: 1\r\n\r\n",
    );
    const text = bytes.toString("latin1");
    expect(text.startsWith("HTTP/1.1 200")).toBe(true);
    expect(text.toLowerCase()).not.toContain("x-back");
    expect(upstream.hits).toHaveLength(1);
    expect(upstream.hits[0]?.headers["x-planted-hop"]).toBeUndefined();
    expect(upstream.hits[0]?.headers["x-kept"]).toBe("1");
  });
});
