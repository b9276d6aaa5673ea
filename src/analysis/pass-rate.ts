/**
 * The statistics of a series of trials (see docs/trials.md): pass rate, pass^k, pass@k, the
 * 95 % Wilson score interval and the class. Pure functions of two counts.
 */

/** How a scenario behaved over its trials. */
export type TrialClass = "stable_pass" | "flaky" | "stable_fail";

/** The 97.5th percentile of the standard normal distribution: two-sided 95 %. */
const Z_95 = 1.959963984540054;

/** Rounded to four decimals, `-0` written as `0`. */
function fourDecimals(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  return rounded === 0 ? 0 : rounded;
}

/** passed / trials; 0 for no trial. */
export function passRate(passed: number, trials: number): number {
  return trials === 0 ? 0 : passed / trials;
}

/**
 * The 95 % Wilson score interval of the pass rate, `[low, high]`, each rounded to four decimals
 * and kept within [0, 1]. With no trial nothing is known: `[0, 1]`.
 */
export function wilsonInterval95(passed: number, trials: number): readonly [number, number] {
  if (trials === 0) return [0, 1];
  const p = passed / trials;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  const clamp = (value: number): number => Math.min(1, Math.max(0, value));
  return [fourDecimals(clamp(centre - half)), fourDecimals(clamp(centre + half))];
}

/** `stable_pass` when every trial passed, `stable_fail` when none did (or none ran), else `flaky`. */
export function trialClass(passed: number, trials: number): TrialClass {
  if (trials > 0 && passed === trials) return "stable_pass";
  return passed === 0 ? "stable_fail" : "flaky";
}

/** pass^k: every one of the k trials passed (false for none). */
export function passHatK(passed: number, trials: number): boolean {
  return trials > 0 && passed === trials;
}

/** pass@k: at least one of the k trials passed. */
export function passAtK(passed: number): boolean {
  return passed > 0;
}

/**
 * Whether the pass rate reaches the minimum. `passed / trials` is the double nearest the true
 * ratio, so a minimum written as the same decimal (`0.6` for 3 of 5) compares equal.
 */
export function meetsMinimum(passed: number, trials: number, minPassRate: number): boolean {
  return trials > 0 && passed / trials >= minPassRate;
}
