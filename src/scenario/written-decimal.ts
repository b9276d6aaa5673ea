/** A YAML 1.2 core-schema float as written: `0.5`, `.5`, `1.`, `1.0`, `5e-1`, `+0.25`. */
const FLOAT_TEXT = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/;

/** The exact value of a decimal written in the file: `digits × 10^exponent`. */
export interface WrittenDecimal {
  readonly digits: bigint;
  readonly exponent: number;
}

/** Reads the digits exactly as written (no float on the way), or null when the text is not a decimal. */
export function parseWrittenDecimal(text: string): WrittenDecimal | null {
  const match = FLOAT_TEXT.exec(text);
  if (match === null) return null;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = match;
  if (whole === "" && fraction === "") return null;
  const digits = BigInt(`${whole}${fraction}` || "0");
  const scale = Number(exponent) - fraction.length;
  if (!Number.isSafeInteger(scale)) return null;
  return { digits: sign === "-" ? -digits : digits, exponent: scale };
}

/** Decimal places as written: trailing zeros count (`0.5000000` has seven). */
export function decimalPlaces(decimal: WrittenDecimal): number {
  return Math.max(0, -decimal.exponent);
}

/**
 * The value in exact millionths; exact when `decimalPlaces` is at most six (truncated otherwise).
 * Huge values are clamped to ±10^13 millionths, enough to compare against bounds like 1.
 */
export function toMillionths(decimal: WrittenDecimal): bigint {
  if (decimal.digits === 0n) return 0n;
  const shift = decimal.exponent + 6;
  if (shift < 0) return decimal.digits / 10n ** BigInt(-shift);
  if (shift > 13) return decimal.digits > 0n ? 10n ** 13n : -(10n ** 13n);
  return decimal.digits * 10n ** BigInt(shift);
}
