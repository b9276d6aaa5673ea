import { parseReporterList, type ReporterName } from "../reporters/names.js";
import { parseMinPassRate, parseTrials } from "../trials/options.js";
import type { ParsedArgs } from "./args.js";

/** A positive whole number of jobs as written on the command line (`--jobs N`), or null. */
export function parseJobs(text: string): number | null {
  return /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : null;
}

/** The flags `runManyFlags` reads. */
export type RunManyFlags = Exclude<ReturnType<typeof runManyFlags>, string>;

/**
 * The flags `run`, `suite` and `explore` share, checked in this order: `--reporter` (default
 * `reporters`), `--trials` (default 1), `--jobs` when `withJobs`, `--min-pass-rate`; or the
 * first one-line usage problem.
 */
export function runManyFlags(
  values: ParsedArgs["values"],
  reporters: readonly ReporterName[],
  withJobs: boolean,
) {
  const reporterList =
    typeof values.reporter === "string" ? parseReporterList(values.reporter) : [...reporters];
  if ("problem" in reporterList) return reporterList.problem;
  const trials = typeof values.trials === "string" ? parseTrials(values.trials) : 1;
  if (typeof trials !== "number") return trials.problem;
  const jobs = withJobs && typeof values.jobs === "string" ? parseJobs(values.jobs) : undefined;
  if (jobs === null) return `--jobs needs a positive integer, got '${values.jobs}'`;
  const rate = values["min-pass-rate"];
  const minPassRate = typeof rate === "string" ? parseMinPassRate(rate) : undefined;
  if (typeof minPassRate === "object") return minPassRate.problem;
  return {
    reporters: reporterList,
    trials,
    ...(jobs === undefined ? {} : { jobs }),
    ...(minPassRate === undefined ? {} : { minPassRate }),
  };
}
