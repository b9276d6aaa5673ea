import { type Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from "yaml";

export type KeyPath = readonly PropertyKey[];

/**
 * The notation of docs/scenario.md: `fault.trigger.occurrences[1]`. A key that would read ambiguously (empty,
 * or holding `.`, brackets, quotes or spaces) is quoted: `workload.env[""]`.
 */
export function formatKeyPath(path: KeyPath): string {
  let text = "";
  for (const segment of path) {
    const key = String(segment);
    if (typeof segment === "number") text += `[${segment}]`;
    else if (key === "" || /[.[\]"'\s]/.test(key)) text += `[${JSON.stringify(key)}]`;
    else text += text === "" ? key : `.${key}`;
  }
  return text === "" ? "(top level)" : text;
}

function keyText(pair: Pair): string {
  const key = pair.key;
  if (isScalar(key)) return key.value === null ? "" : String(key.value);
  return String(key);
}

function resolved(doc: Document, node: unknown): Node | null {
  if (isAlias(node)) return (node.resolve(doc) as Node | undefined) ?? null;
  return (node as Node | null) ?? null;
}

/** Each mapping's pairs by key text (the first pair of a key wins), built once per mapping. */
const pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairByKey(map: YAMLMap, key: string): Pair | undefined {
  let index = pairIndexes.get(map);
  if (index === undefined) {
    index = new Map();
    for (const item of map.items) {
      const text = keyText(item);
      if (!index.has(text)) index.set(text, item);
    }
    pairIndexes.set(map, index);
  }
  return index.get(key);
}

/**
 * A step down from `node` by one path segment: the pair (for a mapping) or the item. An alias
 * is followed when stepping through it; as the last step it stays itself, so a problem points
 * where the alias is used.
 */
function step(
  doc: Document,
  from: Node,
  segment: PropertyKey,
): { key: Node | null; value: Node | null } | null {
  const node = resolved(doc, from);
  if (isMap(node)) {
    const pair = pairByKey(node, String(segment));
    if (pair === undefined) return null;
    return { key: (pair.key as Node | null) ?? null, value: (pair.value as Node | null) ?? null };
  }
  if (isSeq(node) && typeof segment === "number") {
    const item = node.items[segment] as Node | undefined;
    return item === undefined ? null : { key: null, value: item };
  }
  return null;
}

export interface Located {
  /** The node found: the one at `path` (its key when `key` was asked), else the deepest ancestor. */
  readonly node: Node;
  /** Whether the whole path exists. */
  readonly exact: boolean;
}

/**
 * The node a problem at `path` points at. A missing key points at its parent mapping; with
 * `key`, the last segment's key node is returned instead of its value (unknown keys).
 */
export function locate(doc: Document, path: KeyPath, options: { key?: boolean } = {}): Located | null {
  let node = (doc.contents as Node | null) ?? null;
  if (node === null) return null;
  for (const [index, segment] of path.entries()) {
    const next = step(doc, node, segment);
    if (next === null) return { node, exact: false };
    const last = index === path.length - 1;
    if (last && options.key === true && next.key !== null) return { node: next.key, exact: true };
    const target = next.value ?? next.key;
    if (target === null) return { node, exact: false };
    node = target;
  }
  return { node, exact: true };
}

/** The source text of the plain (unquoted) scalar at `path`, or null. */
export function writtenPlainScalar(doc: Document, path: KeyPath): string | null {
  const found = locate(doc, path);
  const node = found?.exact === true ? resolved(doc, found.node) : null;
  if (!isScalar(node) || node.type !== "PLAIN" || typeof node.source !== "string") return null;
  return node.source;
}

/** The start offset of a node in the source text. */
export function startOf(node: Node): number {
  return node.range?.[0] ?? 0;
}
