import { describe, expect, it } from "vitest";
import { LiteralReplacements } from "../../src/support/literal-replace.js";

const entry = (literal: string, replacement: string) => ({
  literal: Buffer.from(literal),
  replacement: Buffer.from(replacement),
});

/** Feeds `text` in chunks of `size` bytes and returns what comes out. */
function replaceInChunks(text: string, size: number, entries: ReturnType<typeof entry>[]): string {
  const replacements = new LiteralReplacements(entries);
  const input = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < input.length; at += size) out.push(replacements.push(input.subarray(at, at + size)));
  out.push(replacements.end());
  return Buffer.concat(out).toString();
}

describe("LiteralReplacements", () => {
  it("replaces a literal wherever the chunk boundaries fall, also when it is split across chunks", () => {
    const text = "before ac-canary-0a1b2c3d middle ac-canary-0a1b2c3dac-canary-0a1b2c3d after ac-canary-0a1b";
    const expected = "before [canary f] middle [canary f][canary f] after ac-canary-0a1b";
    for (let size = 1; size <= text.length + 1; size++)
      expect(replaceInChunks(text, size, [entry("ac-canary-0a1b2c3d", "[canary f]")])).toBe(expected);
  });

  it("applies the literals one after another, as replaceAll in turn would", () => {
    const text = "1234567 604217 604,217 12345";
    const entries = [
      entry("123456", "[A]"),
      entry("234567", "[B]"),
      entry("604217", "[C]"),
      entry("604,217", "[C]"),
    ];
    const inTurn = entries.reduce(
      (acc, e) => acc.replaceAll(e.literal.toString(), e.replacement.toString()),
      text,
    );
    expect(inTurn).toBe("[A]7 [C] [C] 12345");
    for (let size = 1; size <= 9; size++) expect(replaceInChunks(text, size, entries)).toBe(inTurn);
  });

  it("counts the replacements and passes data without a literal through unchanged", () => {
    const replacements = new LiteralReplacements([entry("secret", "[x]"), entry("", "never")]);
    const head = replacements.push(Buffer.from("no secre"));
    const tail = replacements.push(Buffer.from("t here"));
    expect(Buffer.concat([head, tail, replacements.end()]).toString()).toBe("no [x] here");
    expect(replacements.replaced).toBe(1);
    const none = new LiteralReplacements([entry("secret", "[x]")]);
    expect(Buffer.concat([none.push(Buffer.from("plain")), none.end()]).toString()).toBe("plain");
    expect(none.replaced).toBe(0);
  });
});
