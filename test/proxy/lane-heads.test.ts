import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BodyFraming, FramingError } from "../../src/proxy/lane/body-framing.js";
import { headerRecord, parseRequestHead, parseResponseHead } from "../../src/proxy/lane/heads.js";
import { FORWARDED_METHODS } from "../../src/proxy/responses.js";

const request = (text: string) => parseRequestHead(text, FORWARDED_METHODS);

describe("request heads in the fast lane", () => {
  it("keeps the forwarded header lines as received, without hop-by-hop ones and the names Connection lists", () => {
    const head = request(
      "POST /v1/chat?x=1 HTTP/1.1\r\nHost: proxy\r\nX-Case:  Kept \r\nConnection: keep-alive, X-Hop\r\nX-Hop: secret\r\n" +
        "Keep-Alive: timeout=5\r\nContent-Length: 2\r\nIdempotency-Key: a\r\nidempotency-key: b\r\nAuthorization: Bearer t\r\n\r\n",
    );
    expect(head).toEqual({
      method: "POST",
      target: "/v1/chat?x=1",
      forwarded: "X-Case:  Kept \r\nIdempotency-Key: a\r\nidempotency-key: b\r\nAuthorization: Bearer t\r\n",
      contentLength: 2,
      close: false,
      idempotencyKey: "a, b",
      hasAuthorization: true,
    });
  });

  it("sees Connection: close in any case and among other options", () => {
    expect(request("GET / HTTP/1.1\r\nHost: h\r\nconnection: Upgrade-Nothing, CLOSE\r\n\r\n")?.close).toBe(
      true,
    );
  });

  it.each([
    ["HTTP/1.0", "GET / HTTP/1.0\r\n\r\n"],
    ["an absolute-form target", "GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a method it does not forward", "TRACE / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a lower-case method", "get / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a chunked body", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"],
    ["Expect", "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"],
    ["Upgrade", "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n"],
    ["lengths that disagree", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"],
    ["repeated equal lengths", "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\n"],
    ["a list of equal lengths", "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\n"],
    ["no Host", "GET / HTTP/1.1\r\nX-A: 1\r\n\r\n"],
    ["a length that is not a number", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n"],
    ["a folded line", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  folded\r\n\r\n"],
    ["a line without a colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A\r\n\r\n"],
    ["a name with a space", "GET / HTTP/1.1\r\nHost: h\r\nX A: 1\r\n\r\n"],
    ["a bare LF inside a line", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\nX-B: 2\r\n\r\n"],
    ["a control character in a value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u0000b\r\n\r\n"],
    ["a space in the target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n"],
  ])("leaves %s to the full pipeline", (_what, text) => {
    expect(request(text)).toBeNull();
  });

  it("leaves a head that reaches the limit by Node's count to the full pipeline, however it arrived", () => {
    // The target, each name, and each value from its first non-blank byte (trailing blanks count).
    const head = (valueLength: number) =>
      `GET /t HTTP/1.1\r\nHost:  h\r\nX-Pad:   ${"p".repeat(valueLength)} \t\r\n\r\n`;
    const counted = (valueLength: number) =>
      "/t".length + "Host".length + 1 + "X-Pad".length + valueLength + 2;
    const under = 16_383 - counted(0);
    expect(counted(under)).toBe(16_383);
    expect(request(head(under))).not.toBeNull();
    expect(request(head(under + 1))).toBeNull();
  });
});

describe("response heads in the fast lane", () => {
  it("relays the upstream's header lines without hop-by-hop ones, its length and the names its Connection lists", () => {
    const head = parseResponseHead(
      "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nConnection: X-Back\r\nX-Back: 1\r\nContent-Length: 0\r\n" +
        "Content-Type: application/json\r\nKeep-Alive: timeout=5, max=100\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n\r\n",
    );
    expect(head).toMatchObject({
      status: 429,
      relayed: "Retry-After: 2\r\nContent-Type: application/json\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n",
      contentType: "application/json",
      contentLength: 0,
      chunked: false,
      close: false,
      keepAliveMs: 5000,
    });
    expect(headerRecord(head as NonNullable<typeof head>)).toMatchObject({
      "retry-after": "2",
      "set-cookie": ["a", "b"],
    });
  });

  it("frames by chunked coding, and by the close for any other coding", () => {
    expect(parseResponseHead("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")).toMatchObject({
      chunked: true,
      contentLength: null,
      close: false,
    });
    expect(parseResponseHead("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")).toMatchObject({
      chunked: false,
      contentLength: null,
      close: true,
    });
  });

  it("closes after an HTTP/1.0 response unless it says keep-alive", () => {
    expect(parseResponseHead("HTTP/1.0 200 OK\r\n\r\n")?.close).toBe(true);
    expect(parseResponseHead("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n")?.close).toBe(false);
    expect(parseResponseHead("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")?.close).toBe(true);
  });

  it.each([
    "SSH-2.0-x\r\n\r\n",
    "HTTP/2 200\r\n\r\n",
    "HTTP/1.1 20 OK\r\n\r\n",
    "HTTP/1.1 200 OK\r\nbad line\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
  ])("refuses %j (as undici refuses it for the full pipeline)", (text) => {
    expect(parseResponseHead(text)).toBeNull();
  });
});

describe("body framing", () => {
  const chunkedBody =
    "4;name=value\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n";

  it("decodes a chunked body split anywhere and stops at its end", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: chunkedBody.length }), { maxLength: 8 }), (cuts) => {
        const input = Buffer.from(`${chunkedBody}NEXT`, "latin1");
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces: Buffer[] = [];
        const framing = BodyFraming.chunked((piece) => pieces.push(Buffer.from(piece)));
        let start = 0;
        let used = -1;
        for (const end of [...points, input.length]) {
          if (end <= start) continue;
          const part = input.subarray(start, end);
          const at = framing.feed(part, 0);
          if (framing.done && used < 0) used = start + at;
          start = end;
          if (framing.done) break;
        }
        expect(Buffer.concat(pieces).toString("latin1")).toBe("Wikipedia in \r\n\r\nchunks.");
        expect(used).toBe(chunkedBody.length);
      }),
      { seed: 15, numRuns: 300 },
    );
  });

  it("takes exactly a length's bytes, and everything until the close otherwise", () => {
    const pieces: string[] = [];
    const framing = BodyFraming.length(3, (piece) => pieces.push(piece.toString()));
    expect(framing.feed(Buffer.from("abcdef"), 1)).toBe(4);
    expect(framing.done).toBe(true);
    expect(pieces).toEqual(["bcd"]);
    const rest: string[] = [];
    const untilClose = BodyFraming.untilClose((piece) => rest.push(piece.toString()));
    expect(untilClose.feed(Buffer.from("xyz"), 0)).toBe(3);
    expect(untilClose.done).toBe(false);
    expect(untilClose.endsWithClose).toBe(true);
  });

  it("throws a FramingError on a chunk size that is not hexadecimal", () => {
    const framing = BodyFraming.chunked(() => {});
    expect(() => framing.feed(Buffer.from("zz\r\n"), 0)).toThrow(FramingError);
  });
});
