import { decimalPlaces, parseWrittenDecimal, toMillionths } from "../scenario/written-decimal.js";

/**
 * The probability of a seeded window as an exact number of millionths (0.5 → 500000), read from
 * the number's shortest decimal digits (`String(n)`), never by float multiplication. Null when
 * the probability is not in (0, 1] or has more than six decimal places.
 */
export function probabilityMillionths(probability: number): number | null {
  if (!(probability > 0 && probability <= 1)) return null;
  const decimal = parseWrittenDecimal(String(probability));
  return decimal === null || decimalPlaces(decimal) > 6 ? null : Number(toMillionths(decimal));
}
