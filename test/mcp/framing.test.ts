import { describe, expect, it } from "vitest";
import { SseDataReader } from "../../src/mcp/http/sse-data.js";
import { LineSplitter, lineText } from "../../src/mcp/lines.js";

describe("line framing", () => {
  it("hands over every line with its bytes and line end, across chunk boundaries", () => {
    const splitter = new LineSplitter();
    const lines: string[] = [];
    const push = (text: string) => splitter.push(Buffer.from(text), (line) => lines.push(line.toString()));
    push('{"a":');
    push('1}\r\n{"b"');
    push(":2}\n\n{");
    expect(lines).toEqual(['{"a":1}\r\n', '{"b":2}\n', "\n"]);
    expect(splitter.rest()?.toString()).toBe("{");
    expect(lineText(Buffer.from('{"a":1}\r\n'))).toBe('{"a":1}');
  });

  it("keeps a multi-byte character split between chunks intact", () => {
    const splitter = new LineSplitter();
    const bytes = Buffer.from("é\n");
    const lines: Buffer[] = [];
    splitter.push(bytes.subarray(0, 1), (line) => lines.push(line));
    splitter.push(bytes.subarray(1), (line) => lines.push(line));
    expect(lines.map((line) => line.toString())).toEqual(["é\n"]);
  });
});

describe("event-stream data", () => {
  it("joins data lines, skips comments and other fields, and dispatches on a blank line", () => {
    const reader = new SseDataReader();
    expect(reader.push(Buffer.from(': keep-alive\n\nevent: message\nid: 7\ndata: {"a":\ndata:1}\n'))).toEqual(
      [],
    );
    expect(reader.push(Buffer.from("\n"))).toEqual(['{"a":\n1}']);
  });

  it("treats CRLF split across chunks as one line end", () => {
    const reader = new SseDataReader();
    expect(reader.push(Buffer.from("data: one\r"))).toEqual([]);
    expect(reader.push(Buffer.from("\ndata: two\r"))).toEqual([]);
    expect(reader.push(Buffer.from("\n\r\n"))).toEqual(["one\ntwo"]);
    // A lone CR ends a line too; the last one is only known once the next byte arrives.
    expect(reader.push(Buffer.from("data: three\r\r"))).toEqual([]);
    expect(reader.push(Buffer.from("data: four\n\n"))).toEqual(["three", "four"]);
  });
});
