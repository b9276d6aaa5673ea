import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseEventCounter } from "../../src/support/sse-events.js";

/** Counts the events of `text` fed in the given pieces; returns the count after each piece and at the end. */
function countIn(pieces: readonly string[]): { after: number[]; total: number } {
  const counter = new SseEventCounter();
  const after = pieces.map((piece) => {
    counter.scan(Buffer.from(piece, "latin1"));
    return counter.count;
  });
  return { after, total: counter.end() };
}

/** Every way to cut `text` into two pieces, and byte by byte. */
function splits(text: string): string[][] {
  const ways: string[][] = [[...text]];
  for (let i = 0; i <= text.length; i += 1) ways.push([text.slice(0, i), text.slice(i)]);
  return ways;
}

/** Offsets right after each event, found by feeding `text` in `pieces` and stopping at each event in turn. */
function cutOffsets(text: string, pieces: readonly string[], events: number): number {
  const counter = new SseEventCounter();
  let consumed = 0;
  for (const piece of pieces) {
    const at = counter.scan(Buffer.from(piece, "latin1"), events);
    if (at >= 0) return consumed + at;
    consumed += piece.length;
  }
  return counter.end() === events ? text.length : -1;
}

const FORMS: Record<string, string> = {
  LF: "data: a\n\ndata: b\n\n",
  CRLF: "data: a\r\n\r\ndata: b\r\n\r\n",
  CR: "data: a\r\rdata: b\r\r",
  mixed: "data: a\r\n\ndata: b\r\r\nid: 3\n",
};

describe("SSE event counting", () => {
  for (const [form, text] of Object.entries(FORMS)) {
    it(`counts events ended by ${form} line ends, whatever the chunking`, () => {
      for (const pieces of splits(text)) expect(countIn(pieces).total, JSON.stringify(pieces)).toBe(2);
    });
  }

  it("counts comment-only blocks, ignores blank lines with no line before them, and an unfinished last event", () => {
    expect(countIn([": keep-alive\n\n"]).total).toBe(1);
    expect(countIn(["\n\n\r\n\r\r"]).total).toBe(0);
    expect(countIn(["\n\ndata: a\n\n\n\ndata: b\n"]).total).toBe(1);
    expect(countIn(["event: x\ndata: 1\ndata: 2\nid: 7\n\n"]).total).toBe(1);
  });

  it("treats CR LF as one line end, but CR CR as an empty line", () => {
    expect(countIn(["data: a\r\ndata: b\r\n"]).total).toBe(0);
    expect(countIn(["data: a\r\r"]).total).toBe(1);
    expect(countIn(["data: a\n\r\n"]).total).toBe(1);
  });

  it("completes an event ended by a CR only once the next byte is not LF, or at the end", () => {
    const counter = new SseEventCounter();
    counter.scan(Buffer.from("data: a\r\r"));
    expect(counter.count).toBe(0);
    expect(counter.countIfEnded).toBe(1);
    counter.scan(Buffer.from("\n"));
    expect(counter.count).toBe(1);
    counter.scan(Buffer.from("data: b\r\r"));
    counter.scan(Buffer.from("d"));
    expect(counter.count).toBe(2);
    counter.scan(Buffer.from("ata: c\n\r"));
    expect([counter.count, counter.end()]).toEqual([2, 3]);
  });

  it("stops right after the line end of the requested event, for every boundary form and every chunking", () => {
    const expected: Record<string, number[]> = {
      LF: [9, 18],
      CRLF: [11, 22],
      CR: [9, 18],
      mixed: [10, 20],
    };
    for (const [form, text] of Object.entries(FORMS)) {
      for (const pieces of splits(text)) {
        const found = [1, 2].map((events) => cutOffsets(text, pieces, events));
        expect(found, `${form} ${JSON.stringify(pieces)}`).toEqual(expected[form]);
      }
    }
  });

  it("places the cut after a CR ending an event before the next event's first byte", () => {
    const text = "data: a\r\rdata: b\n\n";
    for (const pieces of splits(text)) expect(cutOffsets(text, pieces, 1)).toBe(9);
  });

  it("counts and cuts the same however a stream is chunked, long lines included", () => {
    const line = fc.tuple(
      fc.constantFrom("data: ", ": ", "id: ", ""),
      fc.string({ unit: fc.constantFrom("a", "é", ":"), maxLength: 300 }),
      fc.constantFrom("\n", "\r\n", "\r"),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat()), (lines, offsets) => {
        const text = lines.map((parts) => parts.join("")).join("");
        const whole = countIn([text]).total;
        const points = [...offsets].map((offset) => offset % (text.length + 1)).sort((a, b) => a - b);
        const pieces = [...points, text.length].map((end, i) => text.slice(i === 0 ? 0 : points[i - 1], end));
        expect(countIn(pieces).total).toBe(whole);
        for (let events = 1; events <= whole; events++) {
          expect(cutOffsets(text, pieces, events)).toBe(cutOffsets(text, [text], events));
        }
      }),
    );
  });
});
