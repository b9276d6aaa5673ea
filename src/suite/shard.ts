import type { SuiteShard } from "../report/suite-document.js";

/** Parses `--shard I/N` (1 ≤ I ≤ N); returns a one-line problem otherwise. */
export function parseShard(text: string): SuiteShard | { readonly problem: string } {
  const match = /^([1-9][0-9]{0,5})\/([1-9][0-9]{0,5})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || index > total)
    return { problem: `--shard needs I/N with 1 <= I <= N, got '${text}'` };
  return { index, total };
}

/**
 * The shard's contiguous block of a sorted list: sizes differ by at most one, earlier shards
 * larger, so shards 1..N together hold every item exactly once, in order.
 */
export function shardSlice<T>(items: readonly T[], shard: SuiteShard): T[] {
  const base = Math.floor(items.length / shard.total);
  const extra = items.length % shard.total;
  const before = shard.index - 1;
  const start = before * base + Math.min(before, extra);
  const size = base + (shard.index <= extra ? 1 : 0);
  return items.slice(start, start + size);
}
