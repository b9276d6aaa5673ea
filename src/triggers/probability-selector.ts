import { createHash } from "node:crypto";

const TWO_POW_256 = 1n << 256n;

/** The selection threshold: floor(p_millionths * 2^256 / 1_000_000). */
export function probabilityThreshold(probabilityMillionths: number): bigint {
  return (BigInt(probabilityMillionths) * TWO_POW_256) / 1_000_000n;
}

/**
 * The seeded probability selector of docs/triggers.md: occurrence k is selected exactly when
 * SHA-256("agentchaos-probability-v1:<seed>:<k>"), read as an unsigned big-endian integer,
 * is below the threshold. Pure and platform independent.
 */
export function isSelected(seed: bigint, occurrence: number, threshold: bigint): boolean {
  const digest = createHash("sha256").update(`agentchaos-probability-v1:${seed}:${occurrence}`).digest("hex");
  return BigInt(`0x${digest}`) < threshold;
}

/** The selected ordinals among `from..to` (inclusive). */
export function selectedOccurrences(
  seed: bigint,
  probabilityMillionths: number,
  from: number,
  to: number,
): number[] {
  const threshold = probabilityThreshold(probabilityMillionths);
  const selected: number[] = [];
  for (let k = from; k <= to; k++) if (isSelected(seed, k, threshold)) selected.push(k);
  return selected;
}
