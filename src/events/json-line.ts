import { parse as parseLossless } from "lossless-json";

/**
 * A JSON number written with a fraction or an exponent (`1.0`, `2e3`). Event schema 1 has no
 * such field, and `1.0` must not pass for the integer `1` as it would after `JSON.parse`.
 */
export class NonIntegerNumber {
  readonly literal: string;
  constructor(literal: string) {
    this.literal = literal;
  }
}

/**
 * Finds a number literal with a fraction or exponent right after `":`, `,` or `[`. A match
 * inside a string is a harmless false positive (it only selects the exact, slower parser).
 */
const MAYBE_NON_INTEGER = /(?:"[ \t\r\n]*:|[,[])[ \t\r\n]*-?\d+[.eE]/;

const INTEGER_LITERAL = /^-?\d+$/;

/** A number right after `":` with a fraction or exponent (no whitespace in between). */
const NON_INTEGER_AFTER_KEY = /":-?[0-9]+[.eE]/;

/**
 * `MAYBE_NON_INTEGER.test(line)`, faster on the lines the recorder writes: without whitespace
 * and without `[`, a number can only follow `":`, so only those places need a look.
 */
function mayHoldNonInteger(line: string): boolean {
  if (
    line.includes(" ") ||
    line.includes("[") ||
    line.includes("\t") ||
    line.includes("\r") ||
    line.includes("\n")
  )
    return MAYBE_NON_INTEGER.test(line);
  return NON_INTEGER_AFTER_KEY.test(line);
}

/**
 * Parses one line of JSON, keeping the difference between integer and non-integer literals:
 * a non-integer literal becomes a `NonIntegerNumber`. Throws `SyntaxError` on invalid JSON.
 * Lines without a non-integer literal (all real events) take the fast `JSON.parse` path.
 */
export function parseJsonLine(line: string): unknown {
  if (!mayHoldNonInteger(line)) return JSON.parse(line);
  return parseLossless(line, null, {
    parseNumber: (literal) =>
      INTEGER_LITERAL.test(literal) ? Number(literal) : new NonIntegerNumber(literal),
    onDuplicateKey: ({ newValue }) => newValue,
  });
}
