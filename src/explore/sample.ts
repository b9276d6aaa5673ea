/**
 * The seeded sample taken when there are more candidate experiments than budget (docs/explore.md,
 * step 6). Each candidate gets the SHA-256 of `<seed>:<key>` (its key names its points
 * and menu entries, e.g. `llm POST /v1/chat/completions #1 | http_error status_code=503`); the
 * candidates with the smallest hashes (hex order, ties by key) are kept, in their original
 * order. The same seed and the same candidates always give the same sample, and a candidate's
 * chance does not depend on which others exist.
 */
import { createHash, randomInt } from "node:crypto";

/** The largest seed `--seed` accepts. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** A fresh seed for an explore given none (printed and recorded, so it can be given back). */
export function randomSeed(): number {
  return randomInt(0, 2 ** 32);
}

function rank(seed: number, key: string): string {
  return createHash("sha256").update(`${seed}:${key}`, "utf8").digest("hex");
}

/** At most `budget` of `items`, chosen by seed as above, in their original order. */
export function seededSample<T>(
  items: readonly T[],
  budget: number,
  seed: number,
  keyOf: (item: T) => string,
): T[] {
  if (items.length <= budget) return [...items];
  const ranked = items.map((item, index) => ({ index, key: keyOf(item), hash: rank(seed, keyOf(item)) }));
  ranked.sort((a, b) =>
    a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const kept = ranked
    .slice(0, Math.max(0, budget))
    .map((entry) => entry.index)
    .sort((a, b) => a - b);
  return kept.map((index) => items[index] as T);
}
