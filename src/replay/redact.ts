import { parseJson } from "../support/json-text.js";
/**
 * `replay.redact` (docs/replay.md): the values the pointers name in a JSON response body, and
 * in each event's JSON `data`, are stored as "[redacted]". A body or an event that is not JSON,
 * or has none of the pointers, is stored as received.
 */
export const REDACTED = "[redacted]";

function tokens(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Replaces the values at `pointers` in `root`; returns whether one was replaced. */
function redactValue(root: unknown, pointers: readonly string[]): boolean {
  let changed = false;
  for (const pointer of pointers) {
    const path = tokens(pointer);
    let node: unknown = root;
    for (const token of path.slice(0, -1)) {
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[token] : undefined;
    }
    const last = path.at(-1);
    if (last === undefined || node === null || typeof node !== "object" || !Object.hasOwn(node, last))
      continue;
    (node as Record<string, unknown>)[last] = REDACTED;
    changed = true;
  }
  return changed;
}

/** A JSON text with the pointers redacted, or the text unchanged. */
export function redactJsonText(text: string, pointers: readonly string[]): string {
  if (pointers.length === 0) return text;
  const parsed = parseJson(text);
  if (parsed === undefined) return text;
  return redactValue(parsed, pointers) ? JSON.stringify(parsed) : text;
}

/** An event's raw text with each `data:` line's JSON redacted (one-line data only). */
export function redactEventText(text: string, pointers: readonly string[]): string {
  if (pointers.length === 0) return text;
  return text.replace(/^data: ?(.*?)(\r?)$/gm, (line, data: string, cr: string) => {
    const redacted = redactJsonText(data, pointers);
    return redacted === data ? line : `data: ${redacted}${cr}`;
  });
}
