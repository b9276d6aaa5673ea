import type { LineCounter } from "yaml";
import { terminalSafe } from "../support/terminal-text.js";

/** A half-open range `[start, end)` of source offsets whose text must never be printed. */
export type Mask = readonly [number, number];

const MASK = "***";
const MAX_WIDTH = 100;
const CONTEXT_BEFORE = 40;
/** Source characters read on each side of the column: enough for MAX_WIDTH once masked and escaped. */
const RAW_WINDOW = 2 * MAX_WIDTH;

/** Index of the first mask that ends after `offset` (masks sorted and disjoint). */
function firstMaskAfter(masks: readonly Mask[], offset: number): number {
  let low = 0;
  let high = masks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((masks[middle] as Mask)[1] <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The text of `[from, to)` with masked parts replaced by `***` and control characters escaped,
 * the caret's index in it, and where the shown text really begins and ends in the source.
 */
function render(source: string, from: number, to: number, offset: number, masks: readonly Mask[]) {
  let text = "";
  let caret = -1;
  let index = firstMaskAfter(masks, from);
  let start = from;
  let i = from;
  while (i < to) {
    const mask = masks[index];
    if (mask !== undefined && mask[0] <= i) {
      if (i === from) start = Math.max(0, mask[0]);
      if (offset >= i && offset < mask[1]) caret = text.length;
      text += MASK;
      i = mask[1];
      index++;
      continue;
    }
    const stop = mask === undefined ? to : Math.min(to, mask[0]);
    if (offset >= i && offset < stop) caret = text.length + terminalSafe(source.slice(i, offset)).length;
    text += terminalSafe(source.slice(i, stop));
    i = stop;
  }
  return { text, caret: caret === -1 ? text.length : caret, start, end: i };
}

/**
 * A short excerpt of the source line holding `offset`: the line (secrets masked, control
 * characters escaped, long lines cut around the column) and a caret under the column. Also
 * returns the 1-based position. Reads at most a fixed window of the line, whatever its length.
 * `masks` must be sorted and non-overlapping (secret-masks.ts).
 */
export function excerptAt(
  source: string,
  lineCounter: LineCounter,
  offset: number,
  masks: readonly Mask[],
): { line: number; column: number; excerpt: string } {
  const { line, col: column } = lineCounter.linePos(offset);
  const lineStart = lineCounter.lineStarts[line - 1] ?? 0;
  let lineEnd = lineCounter.lineStarts[line] ?? source.length;
  if (lineEnd > lineStart && source[lineEnd - 1] === "\n") lineEnd--;
  if (lineEnd > lineStart && source[lineEnd - 1] === "\r") lineEnd--;
  const at = Math.min(Math.max(offset, lineStart), lineEnd);
  const window = render(
    source,
    Math.max(lineStart, at - RAW_WINDOW),
    Math.min(lineEnd, at + RAW_WINDOW),
    at,
    masks,
  );
  const moreBefore = window.start > lineStart;
  const moreAfter = window.end < lineEnd;
  let text = window.text;
  let caret = window.caret;
  if (text.length > MAX_WIDTH || moreBefore || moreAfter) {
    const from = Math.max(0, Math.min(caret - CONTEXT_BEFORE, text.length - MAX_WIDTH));
    const cutBefore = from > 0 || moreBefore;
    const cutAfter = from + MAX_WIDTH < text.length || moreAfter;
    text = `${cutBefore ? "…" : ""}${text.slice(from, from + MAX_WIDTH)}${cutAfter ? "…" : ""}`;
    caret = caret - from + (cutBefore ? 1 : 0);
  }
  const pad = text.slice(0, caret).replace(/[^\t]/g, " ");
  return { line, column, excerpt: `${text}\n${pad}^` };
}
