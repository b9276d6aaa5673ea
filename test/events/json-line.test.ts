import { parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";
import { NonIntegerNumber, parseJsonLine } from "../../src/events/json-line.js";
import { seeded } from "../analysis/random-logs.js";

/** What parseJsonLine gave before its fast path: the exact parse whenever this pattern matches. */
const MAYBE_NON_INTEGER = /(?:"[ \t\r\n]*:|[,[])[ \t\r\n]*-?\d+[.eE]/;

function exact(line: string): unknown {
  if (!MAYBE_NON_INTEGER.test(line)) return JSON.parse(line);
  return parseLossless(line, null, {
    parseNumber: (literal) => (/^-?\d+$/.test(literal) ? Number(literal) : new NonIntegerNumber(literal)),
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

function randomJson(random: () => number, depth: number, spaced: boolean): string {
  const ws = () => (spaced && random() < 0.3 ? [" ", "\t", "\r\n", "  "][Math.floor(random() * 4)] : "");
  const roll = random();
  if (depth > 2 || roll < 0.45) {
    const kind = Math.floor(random() * 7);
    if (kind === 0) return String(Math.floor(random() * 1000) - 500);
    if (kind === 1) return `${Math.floor(random() * 100)}.${Math.floor(random() * 10)}`;
    if (kind === 2) return `${Math.floor(random() * 9)}e${Math.floor(random() * 3)}`;
    if (kind === 3) return `-${Math.floor(random() * 9)}E-1`;
    if (kind === 4)
      return JSON.stringify(
        ['a":1.5', ",2.0", "2026-12-01T01:00:00.000Z", "[3.0]", "x"][Math.floor(random() * 5)],
      );
    if (kind === 5) return ["true", "null", "false"][Math.floor(random() * 3)] as string;
    return String(Math.floor(random() * 10));
  }
  const items = Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1, spaced));
  if (roll < 0.6) return `[${ws()}${items.join(`${ws()},${ws()}`)}${ws()}]`;
  return `{${ws()}${items.map((item, i) => `"k${i}"${ws()}:${ws()}${item}`).join(`${ws()},`)}${ws()}}`;
}

describe("parseJsonLine", () => {
  it("keeps integer and non-integer literals apart wherever they stand, exactly as before its fast path", () => {
    const random = seeded(7);
    for (let i = 0; i < 5000; i++) {
      const line = randomJson(random, 0, i % 2 === 0);
      expect(parseJsonLine(line), line).toEqual(exact(line));
    }
  });

  it("marks a whole number written with a fraction or exponent in an event line", () => {
    const line = '{"a":"x","sequence":2.0,"b":{"c":1e3,"d":-4E0}}';
    const parsed = parseJsonLine(line) as { sequence: unknown; b: { c: unknown; d: unknown } };
    expect(parsed.sequence).toBeInstanceOf(NonIntegerNumber);
    expect(parsed.b.c).toBeInstanceOf(NonIntegerNumber);
    expect(parsed.b.d).toBeInstanceOf(NonIntegerNumber);
    expect(parseJsonLine('{"t":"2026-12-01T01:00:00.000Z","n":12}')).toEqual({
      t: "2026-12-01T01:00:00.000Z",
      n: 12,
    });
  });
});
