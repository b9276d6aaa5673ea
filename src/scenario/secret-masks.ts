import { type Document, isAlias, isMap, isNode, isScalar, isSeq, type Node, type Scalar } from "yaml";
import type { Mask } from "./excerpt.js";

/**
 * The source ranges of a scenario file that an error excerpt must never show, found by walking
 * the parsed document (not by matching patterns on its lines):
 *
 * - every value of an `env` mapping (environment values may be secrets), also when the mapping
 *   or the value is an alias (then the anchored node is masked where it is written);
 * - in any string that holds `://`: the user information (everything from `://` to the last `@`,
 *   so a password holding `#`, `/` or `?` is covered whole) and the query and fragment;
 * - in any string that begins with `/` (a path): its query and fragment;
 * - every comment.
 *
 * A string written in quotes, as a block or over several lines has no one-to-one mapping from
 * its value to its source text, so it is masked whole when any of its parts must be.
 * The result is sorted and non-overlapping.
 */
export function secretMasks(doc: Document, text: string, comments: readonly Mask[]): Mask[] {
  const masks: Mask[] = [...comments];
  const anchors = new Map<string, Node>();

  const maskNode = (node: Node | null | undefined): void => {
    if (node?.range) masks.push([node.range[0], node.range[1]]);
  };
  const resolve = (node: unknown): Node | null => {
    if (isAlias(node)) return anchors.get(node.source) ?? null;
    return isNode(node) ? node : null;
  };
  const maskEnv = (value: unknown): void => {
    const map = resolve(value);
    if (!isMap(map)) return;
    for (const entry of map.items) {
      if (isAlias(entry.value)) maskNode(entry.value);
      maskNode(resolve(entry.value));
    }
  };
  const maskString = (scalar: Scalar): void => {
    const value = scalar.value;
    if (typeof value !== "string" || !scalar.range) return;
    const parts = secretParts(value);
    if (parts.length === 0) return;
    const [start, end] = scalar.range;
    if (scalar.type === "PLAIN" && text.slice(start, end) === value) {
      for (const [from, to] of parts) masks.push([start + from, start + to]);
    } else {
      masks.push([start, end]);
    }
  };

  // Document order, so that an alias finds the anchor most recently defined before it.
  const walk = (node: unknown): void => {
    if (!isNode(node)) return;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    if (isScalar(node)) {
      maskString(node);
    } else if (isMap(node)) {
      for (const pair of node.items) {
        walk(pair.key);
        walk(pair.value);
        if (isScalar(pair.key) && pair.key.value === "env") maskEnv(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(doc.contents);
  return normalise(masks);
}

/** The parts of a string value to hide, as `[from, to)` offsets into the value. */
export function secretParts(value: string): Mask[] {
  const parts: Mask[] = [];
  let rest = 0;
  const scheme = value.indexOf("://");
  if (scheme !== -1) {
    const authority = scheme + 3;
    const at = value.lastIndexOf("@");
    if (at >= authority) {
      if (at > authority) parts.push([authority, at]);
      rest = at + 1;
    } else {
      rest = authority;
    }
  } else if (!value.startsWith("/")) {
    return parts;
  }
  const query = firstOf(value, "?#", rest);
  if (query !== -1) parts.push([query, value.length]);
  return parts;
}

function firstOf(value: string, chars: string, from: number): number {
  for (let i = from; i < value.length; i++) if (chars.includes(value[i] as string)) return i;
  return -1;
}

/** Sorted by start, overlapping and touching ranges merged, empty ones dropped. */
function normalise(masks: Mask[]): Mask[] {
  const sorted = masks.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
