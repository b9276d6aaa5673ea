/**
 * Finds where the value a JSON pointer names is written in a JSON text, so a corruption replaces
 * exactly those characters and leaves every other byte as the upstream wrote it (number
 * formatting, key order, white space). One forward scan: a value beside the path is skipped
 * once, never parsed; the text must already be known to be valid JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

export function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
  return i;
}

/** `at` is an opening quote; returns the index after the closing one. */
export function skipString(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 2;
    else if (code === QUOTE) return i + 1;
    else i += 1;
  }
}

/** Returns the index right after the value that starts at `at`. */
export function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first === "{" || first === "[") {
    let depth = 0;
    let i = at;
    while (i < text.length) {
      const char = text[i];
      if (char === '"') {
        i = skipString(text, i);
        continue;
      }
      if (char === "{" || char === "[") depth += 1;
      else if (char === "}" || char === "]") {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    return i;
  }
  let i = at;
  while (i < text.length && !",}] \t\n\r".includes(text[i] as string)) i += 1;
  return i;
}

/** In an object at `at`: the start of the member value named `token`, else -1. */
function member(text: string, at: number, token: string): number {
  let i = skipSpace(text, at + 1);
  if (text[i] === "}") return -1;
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (key === token) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return -1;
    i = skipSpace(text, i + 1);
  }
}

/** In an array at `at`: the start of element `token` (a canonical index), else -1. */
function element(text: string, at: number, token: string): number {
  if (!/^(?:0|[1-9]\d*)$/.test(token)) return -1;
  const index = Number(token);
  let i = skipSpace(text, at + 1);
  if (text[i] === "]") return -1;
  for (let k = 0; k < index; k += 1) {
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return -1;
    i = skipSpace(text, i + 1);
  }
  return i;
}

/** Where the value named by `tokens` is written in valid JSON `text`, or null when it is absent. */
export function locateValue(
  text: string,
  tokens: readonly string[],
): { readonly start: number; readonly end: number } | null {
  let i = skipSpace(text, 0);
  for (const token of tokens) {
    const open = text[i];
    if (open === "{") i = member(text, i, token);
    else if (open === "[") i = element(text, i, token);
    else return null;
    if (i < 0) return null;
  }
  return { start: i, end: skipValue(text, i) };
}
