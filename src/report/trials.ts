/**
 * What a series of trials of one scenario says (see docs/trials.md): the summary that
 * `trials.json`, a suite entry's `trials` object and an explore experiment's `trials` object
 * carry, its one-line text, and the verdict a minimum pass rate gives. Pure; shared by the
 * trial scheduler, the suite, explore and the reporters.
 */
import {
  meetsMinimum,
  passAtK,
  passHatK,
  passRate,
  type TrialClass,
  trialClass,
  wilsonInterval95,
} from "../analysis/pass-rate.js";
import type { RunResult } from "../events/types.js";
import { terminalSafe } from "../support/terminal-text.js";
import { exitCodeFor } from "./exit-code.js";
import { resultRow } from "./terminal-rows.js";

export type { TrialClass };

export const TRIAL_CLASSES: readonly TrialClass[] = ["stable_pass", "flaky", "stable_fail"];

/** One finished trial. */
export interface TrialRun {
  /** 1 to N, in the order the trials were planned (not the order they ended in). */
  readonly trial: number;
  readonly result: RunResult;
  readonly reason_code: string;
  readonly duration_ms: number;
  /** The trial's run folder, relative to the folder of the document that lists it; null when none was made. */
  readonly run_folder: string | null;
}

/** One distinct (result, reason) pair and how many trials ended with it. */
export interface TrialOutcome {
  readonly result: RunResult;
  readonly reason_code: string;
  readonly count: number;
}

/** The per-scenario summary, keys in the order they are written. */
export interface TrialsSummary {
  readonly trials: number;
  readonly passed: number;
  /** passed / trials. */
  readonly pass_rate: number;
  /** pass^k: every trial passed. */
  readonly pass_hat_k: boolean;
  /** pass@k: at least one trial passed. */
  readonly pass_at_k: boolean;
  /** The 95 % Wilson score interval of the pass rate, four decimals. */
  readonly wilson_95: readonly [number, number];
  readonly class: TrialClass;
  /** Most frequent first; ties in the order they first occurred. */
  readonly outcomes: readonly TrialOutcome[];
  /** By trial number. */
  readonly runs: readonly TrialRun[];
}

/** A summary with the minimum pass rate it was judged against (suite entries, explore experiments). */
export interface TrialsRecord extends TrialsSummary {
  readonly min_pass_rate: number;
}

/** A trial passes when its run PASSED or RECOVERED. */
export function trialPassed(run: { readonly result: RunResult }): boolean {
  return run.result !== "FAILED";
}

/** Whether the run could not be carried out (its exit code would be 3). */
export function isSetupError(run: { readonly result: RunResult; readonly reason_code: string }): boolean {
  return exitCodeFor(run.result, run.reason_code, false) === 3;
}

/** The summary of the finished trials (any order). */
export function summarizeTrials(runs: readonly TrialRun[]): TrialsSummary {
  const ordered = [...runs].sort((a, b) => a.trial - b.trial);
  const trials = ordered.length;
  const passed = ordered.filter(trialPassed).length;
  const outcomes: { result: RunResult; reason_code: string; count: number }[] = [];
  for (const run of ordered) {
    const same = outcomes.find(
      (outcome) => outcome.result === run.result && outcome.reason_code === run.reason_code,
    );
    if (same === undefined) outcomes.push({ result: run.result, reason_code: run.reason_code, count: 1 });
    else same.count += 1;
  }
  return {
    trials,
    passed,
    pass_rate: passRate(passed, trials),
    pass_hat_k: passHatK(passed, trials),
    pass_at_k: passAtK(passed),
    wilson_95: wilsonInterval95(passed, trials),
    class: trialClass(passed, trials),
    outcomes: outcomes.sort((a, b) => b.count - a.count),
    runs: ordered,
  };
}

/** The summary keys only, in their written order (drops any other key a record carries). */
export function summaryFields(summary: TrialsSummary): TrialsSummary {
  return {
    trials: summary.trials,
    passed: summary.passed,
    pass_rate: summary.pass_rate,
    pass_hat_k: summary.pass_hat_k,
    pass_at_k: summary.pass_at_k,
    wilson_95: summary.wilson_95,
    class: summary.class,
    outcomes: summary.outcomes,
    runs: summary.runs.map((run) => ({
      trial: run.trial,
      result: run.result,
      reason_code: run.reason_code,
      duration_ms: run.duration_ms,
      run_folder: run.run_folder,
    })),
  };
}

export interface TrialsVerdict {
  /** The pass rate reaches the minimum. */
  readonly passes: boolean;
  /** 0 it passes, 1 it does not, 3 every trial was a setup error, 130 interrupted. */
  readonly exitCode: number;
}

/** The series' verdict against `minPassRate`. */
export function trialsVerdict(
  summary: TrialsSummary,
  minPassRate: number,
  interrupted: boolean,
): TrialsVerdict {
  const passes = meetsMinimum(summary.passed, summary.trials, minPassRate);
  if (interrupted) return { passes, exitCode: 130 };
  if (summary.trials > 0 && summary.runs.every(isSetupError)) return { passes: false, exitCode: 3 };
  return { passes, exitCode: passes ? 0 : 1 };
}

/** The failing reasons with their counts: `RECOVERY_NOT_OBSERVED ×2, WORKLOAD_TIMED_OUT ×1`. */
export function failureCounts(summary: TrialsSummary): string {
  return summary.outcomes
    .filter((outcome) => outcome.result === "FAILED")
    .map((outcome) => `${terminalSafe(outcome.reason_code)} ×${outcome.count}`)
    .join(", ");
}

/** `0.60 [0.2307, 0.8824]`. */
export function rateText(summary: TrialsSummary): string {
  const [low, high] = summary.wilson_95;
  return `${summary.pass_rate.toFixed(2)} [${low.toFixed(4)}, ${high.toFixed(4)}]`;
}

/** `5 trials: 3 passed, 2 failed (RECOVERY_NOT_OBSERVED ×2) — flaky, pass rate 0.60 [0.2307, 0.8824]`. */
export function trialsLine(summary: TrialsSummary): string {
  const failed = summary.trials - summary.passed;
  const reasons = failed === 0 ? "" : ` (${failureCounts(summary)})`;
  const noun = summary.trials === 1 ? "trial" : "trials";
  return `${summary.trials} ${noun}: ${summary.passed} passed, ${failed} failed${reasons} — ${summary.class}, pass rate ${rateText(summary)}`;
}

export interface TrialLineOptions {
  /** Append the run folder. */
  readonly folder?: boolean;
  /** Colours the padded result (the terminal's). */
  readonly paint?: (result: RunResult, text: string) => string;
}

/**
 * One trial as a line: result, reason and duration in the columns the suite uses, then
 * `trial <n> of <total>` and, when asked, the run folder.
 */
export function trialRunLine(run: TrialRun, total: number, options: TrialLineOptions = {}): string {
  const folder =
    options.folder === true && run.run_folder !== null ? `  ${terminalSafe(run.run_folder)}` : "";
  const about = `trial ${run.trial} of ${total}${folder}`;
  return resultRow(run.result, run.reason_code, run.duration_ms, about, options.paint);
}
