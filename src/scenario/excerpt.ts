import { type Document, isMap, isNode, isScalar, type LineCounter, visit } from "yaml";

/** A half-open range `[start, end)` of source offsets whose text must never be printed. */
export type Mask = readonly [number, number];

const MASK = "***";
const MAX_WIDTH = 100;
const CONTEXT_BEFORE = 40;
/** A URL's user information and query: `scheme://user:pass@host/path?query`. */
const URL_SECRETS = /[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:([^\s/?#@"']*)@)?[^\s?#"']*(?:\?([^\s#"']*))?/dg;

/** The values of every `env` mapping in the document: environment values may be secrets. */
export function sensitiveRanges(doc: Document): Mask[] {
  const masks: Mask[] = [];
  visit(doc, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== "env" || !isMap(pair.value)) return;
      for (const entry of pair.value.items) {
        if (isNode(entry.value) && entry.value.range) {
          masks.push([entry.value.range[0], entry.value.range[1]]);
        }
      }
    },
  });
  return masks;
}

function urlSecrets(line: string, lineStart: number): Mask[] {
  const masks: Mask[] = [];
  for (const match of line.matchAll(URL_SECRETS)) {
    for (const group of [1, 2]) {
      const span = match.indices?.[group];
      if (span !== undefined && span[1] > span[0]) masks.push([lineStart + span[0], lineStart + span[1]]);
    }
  }
  return masks;
}

/** Replaces masked parts of one line with `***`, moving the caret column along. */
function applyMasks(line: string, lineStart: number, column: number, masks: readonly Mask[]) {
  const onLine = masks
    .map(
      ([start, end]): Mask => [
        Math.max(start, lineStart) - lineStart,
        Math.min(end, lineStart + line.length) - lineStart,
      ],
    )
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let text = "";
  let cursor = 0;
  let caret = column - 1;
  for (const [start, end] of onLine) {
    if (end <= cursor) continue;
    const from = Math.max(start, cursor);
    text += line.slice(cursor, from) + MASK;
    if (column - 1 >= end) caret += MASK.length - (end - from);
    else if (column - 1 >= from) caret = text.length - MASK.length;
    cursor = end;
  }
  return { text: text + line.slice(cursor), caret };
}

/**
 * A short excerpt of the source line holding `offset`: the line (secrets masked, long lines
 * cut around the column) and a caret under the column. Also returns the 1-based position.
 */
export function excerptAt(
  source: string,
  lineCounter: LineCounter,
  offset: number,
  masks: readonly Mask[],
): { line: number; column: number; excerpt: string } {
  const { line, col: column } = lineCounter.linePos(offset);
  const lineStart = lineCounter.lineStarts[line - 1] ?? 0;
  const nextStart = lineCounter.lineStarts[line] ?? source.length;
  const raw = source.slice(lineStart, nextStart).replace(/\r?\n$/, "");
  const masked = applyMasks(raw, lineStart, column, [...masks, ...urlSecrets(raw, lineStart)]);
  let text = masked.text;
  let caret = masked.caret;
  if (text.length > MAX_WIDTH) {
    const from = Math.max(0, Math.min(caret - CONTEXT_BEFORE, text.length - MAX_WIDTH));
    const cut = text.slice(from, from + MAX_WIDTH);
    text = `${from > 0 ? "…" : ""}${cut}${from + MAX_WIDTH < masked.text.length ? "…" : ""}`;
    caret = caret - from + (from > 0 ? 1 : 0);
  }
  const pad = text.slice(0, caret).replace(/[^\t]/g, " ").padEnd(caret, " ");
  return { line, column, excerpt: `${text}\n${pad}^` };
}
