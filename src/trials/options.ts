/**
 * The trial options shared by `run`, `suite` and `explore` and their library functions (see
 * docs/trials.md): `trials` 1 to 100 (1: a single run, as without the option) and the minimum
 * pass rate 0 to 1 (default 1: every trial must pass).
 */
import { AgentChaosError } from "../support/errors.js";

export const MAX_TRIALS = 100;
export const DEFAULT_MIN_PASS_RATE = 1;

/** A trial option out of range; `message` is one line, safe to print. Exit code 2. */
export class TrialsError extends AgentChaosError {
  declare readonly code: "TRIALS_BAD_OPTION";

  constructor(message: string) {
    super("TRIALS_BAD_OPTION", message);
  }

  get exitCode(): number {
    return 2;
  }
}

export interface TrialSettings {
  readonly trials: number;
  readonly minPassRate: number;
}

/**
 * The checked trial options (defaults filled in); a value out of range throws the error
 * `badOption` makes of its message (by default a `TrialsError`).
 */
export function trialSettings(
  options: { readonly trials?: number | undefined; readonly minPassRate?: number | undefined },
  badOption: (message: string) => Error = (message) => new TrialsError(message),
): TrialSettings {
  const trials = options.trials ?? 1;
  const minPassRate = options.minPassRate ?? DEFAULT_MIN_PASS_RATE;
  if (!Number.isInteger(trials) || trials < 1 || trials > MAX_TRIALS) {
    throw badOption(`trials must be an integer from 1 to ${MAX_TRIALS}`);
  }
  if (
    typeof minPassRate !== "number" ||
    !Number.isFinite(minPassRate) ||
    minPassRate < 0 ||
    minPassRate > 1
  ) {
    throw badOption("the minimum pass rate must be a number from 0 to 1");
  }
  return { trials, minPassRate };
}

/** `--trials N` as written on the command line, or a one-line problem. */
export function parseTrials(text: string): number | { readonly problem: string } {
  const value = /^[0-9]{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TRIALS) {
    return { problem: `--trials needs an integer from 1 to ${MAX_TRIALS}, got '${text}'` };
  }
  return value;
}

/** `--min-pass-rate R` as written (a decimal from 0 to 1, e.g. `0.8`, `1`, `.5`), or a one-line problem. */
export function parseMinPassRate(text: string): number | { readonly problem: string } {
  const value = /^(?:[0-9]{1,3}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    return { problem: `--min-pass-rate needs a number from 0 to 1, got '${text}'` };
  }
  return value;
}
