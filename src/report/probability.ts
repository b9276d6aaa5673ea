/**
 * The probability of a seeded window as an exact number of millionths (0.5 → 500000), read from
 * the number's shortest decimal digits (`String(n)`), never by float multiplication. Null when
 * the probability is not in (0, 1] or has more than six decimal places.
 */
export function probabilityMillionths(probability: number): number | null {
  if (!(probability > 0 && probability <= 1)) return null;
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(probability));
  if (match === null) return null;
  const fraction = match[2] ?? "";
  const digits = BigInt(`${match[1]}${fraction}`);
  // value = digits × 10^exponent, so millionths = digits × 10^(exponent + 6)
  const shift = Number(match[3] ?? "0") - fraction.length + 6;
  if (shift >= 0) return Number(digits * 10n ** BigInt(shift));
  const divisor = 10n ** BigInt(-shift);
  return digits % divisor === 0n ? Number(digits / divisor) : null;
}
