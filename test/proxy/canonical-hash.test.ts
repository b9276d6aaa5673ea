import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJsonHash } from "../../src/proxy/canonical-hash.js";
import { canonicalJson } from "../../src/proxy/identity.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Strings long enough to go to the hash by themselves, with and without what JSON escapes. */
const LONG = [
  "a".repeat(70_000),
  'a"b\\'.repeat(20_000),
  "é".repeat(70_000),
  "😀".repeat(40_000),
  "\u0001".repeat(70_000),
  `\ud800${"a".repeat(70_000)}`,
];

describe("the hash of canonical JSON", () => {
  it("equals the SHA-256 of the canonical text, for any JSON value", () => {
    const leaf = fc.oneof(fc.jsonValue(), fc.constantFrom(...LONG));
    const value = fc.oneof(leaf, fc.array(leaf), fc.dictionary(fc.string(), fc.oneof(leaf, fc.array(leaf))));
    fc.assert(
      fc.property(value, (item) => {
        expect(canonicalJsonHash(item)).toBe(sha256(canonicalJson(item)));
      }),
      { numRuns: 200 },
    );
  });

  it("hashes a long string as the canonical text would have it", () => {
    for (const text of LONG) {
      expect(canonicalJsonHash({ b: text, a: [text, 1] })).toBe(
        sha256(canonicalJson({ a: [text, 1], b: text })),
      );
    }
    expect(canonicalJsonHash(null)).toBe(sha256("null"));
  });

  it("takes the caller's word that nothing needs escaping in what was parsed from text without a backslash", () => {
    const text = `{"b":"${"é😀a".repeat(30_000)}","a":["${"x".repeat(70_000)}",1]}`;
    expect(text.includes("\\")).toBe(false);
    const value: unknown = JSON.parse(text);
    expect(canonicalJsonHash(value, true)).toBe(sha256(canonicalJson(value)));
  });
});
