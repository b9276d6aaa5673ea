import { describe, expect, it } from "vitest";
import { splitTarget } from "../../src/proxy/request-target.js";
import {
  clientResponseHeaders,
  isEventStream,
  upstreamRequestHeaders,
} from "../../src/support/http-headers.js";

describe("request header filtering", () => {
  it("drops the hop-by-hop set, host, content-length and expect, keeping order, duplicates and spelling", () => {
    const raw = [
      "Host",
      "proxy",
      "Connection",
      "keep-alive",
      "Keep-Alive",
      "timeout=5",
      "Proxy-Authenticate",
      "x",
      "Proxy-Authorization",
      "y",
      "TE",
      "trailers",
      "Trailer",
      "X-Sum",
      "Transfer-Encoding",
      "chunked",
      "Upgrade",
      "websocket",
      "Content-Length",
      "3",
      "Expect",
      "100-continue",
      "X-Trace",
      "1",
      "Accept",
      "a",
      "X-Trace",
      "2",
    ];
    expect(upstreamRequestHeaders(raw)).toEqual(["X-Trace", "1", "Accept", "a", "X-Trace", "2"]);
  });
});

describe("response header filtering", () => {
  it("drops the hop-by-hop set and content-length and keeps multi-valued headers", () => {
    expect(
      clientResponseHeaders({
        connection: "close",
        "keep-alive": "timeout=5",
        "transfer-encoding": "chunked",
        "content-length": "10",
        upgrade: "h2c",
        "set-cookie": ["a=1", "b=2"],
        "content-type": "application/json",
      }),
    ).toEqual({ "set-cookie": ["a=1", "b=2"], "content-type": "application/json" });
  });

  it("recognises text/event-stream whatever its parameters and case", () => {
    expect(isEventStream({ "content-type": "text/event-stream" })).toBe(true);
    expect(isEventStream({ "content-type": "Text/Event-Stream; charset=utf-8" })).toBe(true);
    expect(isEventStream({ "content-type": "application/json" })).toBe(false);
    expect(isEventStream({})).toBe(false);
  });
});

describe("request targets", () => {
  it("splits the raw path from the raw query at the first `?`", () => {
    expect(splitTarget("/a/b?x=1?y")).toEqual({ forward: "/a/b?x=1?y", rawPath: "/a/b", rawQuery: "x=1?y" });
    expect(splitTarget("/a")).toEqual({ forward: "/a", rawPath: "/a", rawQuery: "" });
  });

  it("keeps only the path and query of an absolute-form target", () => {
    expect(splitTarget("http://example.test:8080/v1/x?q=1")).toEqual({
      forward: "/v1/x?q=1",
      rawPath: "/v1/x",
      rawQuery: "q=1",
    });
    expect(splitTarget("http://example.test?q=1")).toEqual({
      forward: "/?q=1",
      rawPath: "/",
      rawQuery: "q=1",
    });
  });
});
