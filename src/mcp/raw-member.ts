/**
 * Finds the exact source text of one top-level member of a JSON object, so that a value (a
 * JSON-RPC `id`) can be written back byte for byte as it was received: `1.0` stays `1.0`,
 * `"\u0041"` stays escaped, a 20-digit number keeps its digits. The text must already be
 * known to be valid JSON (it was parsed); the scanner then only has to skip values.
 */

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWhitespace(text: string, at: number): number {
  let index = at;
  while (index < text.length && WHITESPACE.has(text.charCodeAt(index))) index++;
  return index;
}

/**
 * `at` is an opening quote; returns the index just past the closing one. Quotes are found with
 * `indexOf`; one is escaped when an odd run of backslashes stands right before it.
 */
function skipString(text: string, at: number): number {
  let index = at + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > at && text.charCodeAt(quote - backslashes - 1) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    index = quote + 1;
  }
}

/** Returns the index just past the value starting at `at`. */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) return skipString(text, at);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    let index = at;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 0x22) {
        index = skipString(text, index);
        continue;
      }
      if (code === 0x7b || code === 0x5b) depth++;
      else if (code === 0x7d || code === 0x5d) {
        depth--;
        if (depth === 0) return index + 1;
      }
      index++;
    }
    return index;
  }
  let index = at;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x2c || code === 0x7d || code === 0x5d || WHITESPACE.has(code)) break;
    index++;
  }
  return index;
}

/**
 * The raw text of member `name` of the JSON object `text` (the last one when the name repeats,
 * as `JSON.parse` keeps the last), or null when the object has no such member.
 */
export function rawMember(text: string, name: string): string | null {
  let index = skipWhitespace(text, 0);
  if (text.charCodeAt(index) !== 0x7b) return null;
  index = skipWhitespace(text, index + 1);
  let found: string | null = null;
  while (index < text.length && text.charCodeAt(index) === 0x22) {
    const keyEnd = skipString(text, index);
    const key = JSON.parse(text.slice(index, keyEnd)) as string;
    index = skipWhitespace(text, keyEnd);
    index = skipWhitespace(text, index + 1); // past ':'
    const valueEnd = skipValue(text, index);
    if (key === name) found = text.slice(index, valueEnd);
    index = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(index) !== 0x2c) break;
    index = skipWhitespace(text, index + 1);
  }
  return found;
}
