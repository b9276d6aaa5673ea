import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemberScanner, type ScannedMembers } from "../../src/mcp/member-scanner.js";

function scan(chunks: readonly Buffer[]): ScannedMembers {
  const scanner = new MemberScanner();
  for (const chunk of chunks) scanner.push(chunk);
  return scanner.result();
}

function cut(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const points = [...offsets].map((offset) => offset % (bytes.length + 1)).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** What the scanner must find in `message`, read with `JSON.parse`'s eyes. */
function expected(message: Record<string, unknown>): ScannedMembers {
  const { id, method, params } = message;
  const named: { name?: string; uri?: string } = {};
  if (params !== null && typeof params === "object" && !Array.isArray(params)) {
    const { name, uri } = params as Record<string, unknown>;
    if (typeof name === "string") named.name = name;
    if (typeof uri === "string") named.uri = uri;
  }
  return {
    method: typeof method === "string" ? method : null,
    rawId: typeof id === "string" || typeof id === "number" ? JSON.stringify(id) : null,
    hasResult: "result" in message,
    hasError: "error" in message,
    params: named,
    complete: true,
  };
}

const text = fc.string({
  unit: fc.constantFrom("a", '"', "\\", "é", "😀", "{", "}", "[", "]", ",", ":", "\n"),
});
const anyValue = fc.oneof(fc.jsonValue(), text);
const member = (key: string, value: fc.Arbitrary<unknown>) =>
  fc.option(
    value.map((v) => [key, v] as const),
    { nil: null },
  );
const params = fc.oneof(
  anyValue,
  fc
    .tuple(
      member("name", anyValue),
      member("uri", anyValue),
      member("arguments", anyValue),
      member(`x${"\\"}`, anyValue),
    )
    .chain((entries) =>
      fc.shuffledSubarray(
        entries.filter((entry) => entry !== null),
        { minLength: 0 },
      ),
    )
    .map((entries) => Object.fromEntries(entries as [string, unknown][])),
);
const message = fc
  .tuple(
    member("jsonrpc", fc.constant("2.0")),
    member(
      "id",
      fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
    ),
    member("method", fc.oneof(text, fc.integer())),
    member("params", params),
    member("result", anyValue),
    member("error", anyValue),
    member("other", anyValue),
  )
  .chain((entries) =>
    fc.shuffledSubarray(
      entries.filter((entry) => entry !== null),
      { minLength: 0 },
    ),
  )
  .map((entries) => Object.fromEntries(entries as [string, unknown][]));

describe("scanning a message in pieces", () => {
  it("finds what JSON.parse finds, however the message is chunked and spaced", () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat()), fc.boolean(), (value, offsets, spaced) => {
        const bytes = Buffer.from(JSON.stringify(value, null, spaced ? 2 : undefined));
        expect(scan(cut(bytes, offsets))).toEqual(expected(value));
      }),
      { numRuns: 500 },
    );
  });

  it("finds the id after a large params object, the order the official SDK writes", () => {
    const body = "x".repeat(1_000_000);
    const bytes = Buffer.from(
      `{"method":"tools/call","params":{"arguments":{"data":"${body}","list":[1,{"a":"]}"}]},"name":"upload"},"jsonrpc":"2.0","id":42}`,
    );
    expect(scan(cut(bytes, [3, 70_000, 500_000, bytes.length - 3]))).toEqual({
      method: "tools/call",
      rawId: "42",
      hasResult: false,
      hasError: false,
      params: { name: "upload" },
      complete: true,
    });
  });

  it("takes the last of a repeated member, as JSON.parse does", () => {
    for (const text of [
      '{"method":"a","id":1,"method":2}',
      '{"id":1,"id":{}}',
      '{"params":{"name":"a","uri":"u"},"params":{"uri":7}}',
      '{"params":{"name":"a","name":null}}',
      '{"params":{"name":"a"},"params":[1]}',
    ]) {
      expect(scan([Buffer.from(text)])).toEqual(expected(JSON.parse(text)));
    }
  });

  it("says so when a member it looks for is too long to keep, but not for a long key", () => {
    const long = "n".repeat(70_000);
    expect(scan([Buffer.from(`{"method":"${long}","id":1}`)])).toMatchObject({
      method: null,
      complete: false,
    });
    expect(scan([Buffer.from(`{"params":{"name":"${long}"},"id":1}`)])).toMatchObject({ complete: false });
    expect(scan([Buffer.from(`{"${long}":1,"params":{"${long}":2,"name":"n"},"id":1}`)])).toMatchObject({
      params: { name: "n" },
      rawId: "1",
      complete: true,
    });
  });

  it("keeps an id's text as written and finds nothing in what is not an object", () => {
    expect(scan([Buffer.from('{"id":1.50,"result":{}}')]).rawId).toBe("1.50");
    expect(scan([Buffer.from('{"id":"\\u0041","error":{}}')]).rawId).toBe('"\\u0041"');
    for (const other of ['["id",1]', '"id"', "null", 'garbage {"id":1}']) {
      expect(scan([Buffer.from(other)])).toEqual({
        method: null,
        rawId: null,
        hasResult: false,
        hasError: false,
        params: {},
        complete: true,
      });
    }
  });
});
