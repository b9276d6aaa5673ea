import { describe, expect, it } from "vitest";
import { cutPoint } from "../../src/faults/stream/cut-point.js";

/** The absolute offset of the cut point when `text` arrives in `pieces`, or -1 when the body ends first. */
function cutIn(pieces: readonly string[], spec: { afterEvents: number | null; afterBytes: number | null }) {
  const cut = cutPoint(spec);
  if (cut.atStart) return 0;
  let consumed = 0;
  for (const piece of pieces) {
    const at = cut.find(Buffer.from(piece, "latin1"));
    if (at >= 0) return consumed + at;
    consumed += piece.length;
  }
  return cut.reachedAtEnd() ? consumed : -1;
}

function everySplit(text: string): string[][] {
  const ways: string[][] = [[...text]];
  for (let i = 0; i <= text.length; i += 1) {
    for (let j = i; j <= text.length; j += 1) ways.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  return ways;
}

describe("the cut point", () => {
  const text = "data: a\r\n\r\n: ping\r\rdata: b\n\n";

  it("lies after N body bytes however the body is split, right after the headers for 0", () => {
    for (const bytes of [0, 1, 7, 11, 28]) {
      for (const pieces of everySplit(text))
        expect(cutIn(pieces, { afterEvents: null, afterBytes: bytes })).toBe(bytes);
    }
  });

  it("is never reached by a body shorter than after_bytes", () => {
    for (const pieces of everySplit(text))
      expect(cutIn(pieces, { afterEvents: null, afterBytes: 29 })).toBe(-1);
  });

  it("lies right after the N-th event's line end however the stream is split", () => {
    for (const pieces of everySplit(text)) {
      expect([1, 2, 3].map((events) => cutIn(pieces, { afterEvents: events, afterBytes: null }))).toEqual([
        11, 19, 28,
      ]);
      expect(cutIn(pieces, { afterEvents: 4, afterBytes: null })).toBe(-1);
    }
  });

  it("is reached at the very end by a stream whose last event ends with a lone CR", () => {
    for (const pieces of everySplit("data: a\r\r"))
      expect(cutIn(pieces, { afterEvents: 1, afterBytes: null })).toBe(9);
  });
});
