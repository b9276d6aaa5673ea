import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SseDataReader } from "../../src/mcp/http/sse-data.js";
import { LineSplitter, lineText, type OversizedLine } from "../../src/mcp/lines.js";

/** `bytes` cut at the given offsets (sorted, duplicates allowed: empty chunks). */
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

/** Every way to cut `bytes` in two, and byte by byte. */
function everySplit(bytes: Buffer): Buffer[][] {
  const ways: Buffer[][] = [[...bytes].map((byte) => Buffer.from([byte]))];
  for (let at = 0; at <= bytes.length; at++) ways.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return ways;
}

interface Split {
  lines: string[];
  oversized: { text: string; complete: boolean }[];
}

function splitLines(chunks: readonly Buffer[], limit?: number): Split {
  const result: Split = { lines: [], oversized: [] };
  const splitter = new LineSplitter({
    ...(limit === undefined ? {} : { limit }),
    oversized: (): OversizedLine => {
      const pieces: Buffer[] = [];
      return {
        data: (piece) => pieces.push(Buffer.from(piece)),
        end: (complete) =>
          result.oversized.push({ text: Buffer.concat(pieces).toString("latin1"), complete }),
      };
    },
  });
  const onLine = (line: Buffer) => result.lines.push(line.toString("latin1"));
  for (const chunk of chunks) splitter.push(chunk, onLine);
  splitter.end(onLine);
  return result;
}

/** The lines of a whole text, each with its `\n`, the unfinished last one as it is. */
function wholeLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("line framing", () => {
  it("hands over every line with its bytes and line end, across chunk boundaries", () => {
    const splitter = new LineSplitter();
    const lines: string[] = [];
    const push = (text: string) => splitter.push(Buffer.from(text), (line) => lines.push(line.toString()));
    push('{"a":');
    push('1}\r\n{"b"');
    push(":2}\n\n{");
    expect(lines).toEqual(['{"a":1}\r\n', '{"b":2}\n', "\n"]);
    splitter.end((line) => lines.push(line.toString()));
    expect(lines.at(-1)).toBe("{");
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

  it("gives the same lines for a cut anywhere, a CRLF split between chunks included", () => {
    const text = '{"a":1}\r\n\r\n{"b":"\\n"}\n\nlast';
    for (const chunks of everySplit(Buffer.from(text))) {
      expect(splitLines(chunks).lines).toEqual(wholeLines(text));
    }
  });

  it("gives the same lines however a stream is chunked", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "\r", "\n", "{", "é") }),
        fc.array(fc.nat()),
        (text, offsets) => {
          const bytes = Buffer.from(text, "latin1");
          expect(splitLines(cut(bytes, offsets)).lines).toEqual(wholeLines(text));
        },
      ),
    );
  });

  it("joins a line that spans many chunks once, not once per chunk", () => {
    const concat = vi.spyOn(Buffer, "concat");
    const splitter = new LineSplitter();
    const lines: Buffer[] = [];
    for (let i = 0; i < 1000; i++) splitter.push(Buffer.from("0123456789"), (line) => lines.push(line));
    splitter.push(Buffer.from("end\n"), (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBe(10_004);
    expect(concat).toHaveBeenCalledTimes(1);
  });
});

describe("a line over the limit", () => {
  it("passes up to the limit, its newline not counted, and goes to the oversized handler beyond it", () => {
    const text = "abcd\nabcde\nab\n";
    for (const chunks of everySplit(Buffer.from(text))) {
      expect(splitLines(chunks, 4)).toEqual({
        lines: ["abcd\n", "ab\n"],
        oversized: [{ text: "abcde", complete: true }],
      });
    }
  });

  it("ends unfinished with the stream", () => {
    expect(splitLines([Buffer.from("ok\nabc"), Buffer.from("defg")], 4)).toEqual({
      lines: ["ok\n"],
      oversized: [{ text: "abcdefg", complete: false }],
    });
  });

  it("hands every byte to the handler and no line is lost around it, however the stream is chunked", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\r"), maxLength: 12 }), { maxLength: 8 }),
        fc.array(fc.nat()),
        fc.integer({ min: 0, max: 8 }),
        (lines, offsets, limit) => {
          const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(""), "latin1");
          expect(splitLines(cut(bytes, offsets), limit)).toEqual({
            lines: lines.filter((line) => line.length <= limit).map((line) => `${line}\n`),
            oversized: lines.filter((line) => line.length > limit).map((text) => ({ text, complete: true })),
          });
        },
      ),
    );
  });
});

/** Every event's data, feeding `chunks` one by one. */
function readData(chunks: readonly Buffer[]): string[] {
  const reader = new SseDataReader();
  return chunks.flatMap((chunk) => reader.push(chunk));
}

/** The events of a whole stream by the format's rules, as plainly as they can be written. */
function eventsOf(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // unfinished
  if (text.endsWith("\r")) lines.pop(); // its line end may still grow into a CRLF
  const events: string[] = [];
  let data: string[] = [];
  for (const line of lines) {
    if (line === "") {
      if (data.length > 0) events.push(data.join("\n"));
      data = [];
    } else if (line === "data") data.push("");
    else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  return events;
}

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

  it("gives the same events for a cut anywhere, in \\n\\n, \\r\\n\\r\\n and \\r\\r", () => {
    for (const [text, events] of [
      ["data: a\n\ndata: b\ndata: c\n\n", ["a", "b\nc"]],
      ["data: a\r\n\r\ndata: b\r\ndata: c\r\n\r\n", ["a", "b\nc"]],
      ["data: a\r\rdata: é\r\n: note\r\n\r\n", ["a", "é"]],
    ] as const) {
      for (const chunks of everySplit(Buffer.from(text))) expect(readData(chunks)).toEqual(events);
    }
  });

  it("gives the same events however a stream is chunked", () => {
    const line = fc.tuple(
      fc.constantFrom("data: ", "data:", ": ", "event: ", "data"),
      fc.string({ unit: fc.constantFrom("a", "é", "😀", ":", " ") }),
      fc.constantFrom("\n", "\r\n", "\r"),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(line, fc.constant(["", "", "\n"] as const))),
        fc.array(fc.nat()),
        (lines, offsets) => {
          const text = lines.map((parts) => parts.join("")).join("");
          const bytes = Buffer.from(text);
          expect(readData(cut(bytes, offsets))).toEqual(eventsOf(text));
          expect(readData([bytes])).toEqual(eventsOf(text));
        },
      ),
    );
  });
});
