/**
 * The options of an explore (see docs/explore.md) and their checks, and what an explore returns.
 */

import type { ExploreDocument } from "../report/explore-document.js";
import type { ReporterName } from "../reporters/names.js";
import { trialSettings } from "../trials/options.js";
import { ExploreError } from "./errors.js";
import type { ExploreProgress } from "./progress.js";
import { MAX_SEED } from "./sample.js";

export const DEFAULT_EXPLORE_DIR = ".agentchaos/explore";
export const DEFAULT_BUDGET = 200;
export const DEFAULT_BASELINE_RUNS = 2;
export const MAX_BASELINE_RUNS = 20;

export interface ExploreOptions {
  /** A menu file (relative to the working directory), or `extended` (docs/explore.md); default: the default menu. */
  readonly menu?: string;
  /** 1 (default): single faults; 2: then ordered pairs of passing singles. */
  readonly depth?: 1 | 2;
  /** Most experiments to run, confirmation runs not counted (default 200). */
  readonly budget?: number;
  /** Runs at once (default: the number of CPUs). */
  readonly jobs?: number;
  /** Baseline runs, each of which must pass (default 2). */
  readonly baselineRuns?: number;
  /** Seed of the sample taken over budget (default: a random one, recorded). */
  readonly seed?: number;
  /** Default `.agentchaos/explore`, relative to the working directory. */
  readonly outputDir?: string;
  /** Default `["junit", "html"]`; explore.json is always written. */
  readonly reporters?: readonly ReporterName[];
  /** Aborting it stops the explore like SIGINT: running experiments are stopped, finished ones kept. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExploreProgress) => void;
  /** Runs of each experiment, 1 to 100 (default 1: one run, failures confirmed by a second). */
  readonly trials?: number;
  /** With trials: the least pass rate, 0 to 1, with which an experiment passes (default 1). */
  readonly minPassRate?: number;
}

export interface ExploreSettings extends ExploreOptions {
  /** Absolute; the menu path and the output folder resolve against it. */
  readonly cwd: string;
  readonly forceStop?: AbortSignal;
}

export interface ExploreDone {
  readonly document: ExploreDocument;
  /** Absolute explore folder. */
  readonly folder: string;
  /** Absolute paths: explore.json first, then the reporters' files. */
  readonly written: readonly string[];
  /** 0 nothing failed, 1 a failure or a failing baseline, 2 nothing to explore, 3 baseline setup error, 130 interrupted. */
  readonly exitCode: number;
}

export function checkOptions(options: ExploreOptions): void {
  const badOption = (message: string): ExploreError => new ExploreError("EXPLORE_BAD_OPTION", message);
  const bad = (message: string): never => {
    throw badOption(message);
  };
  const whole = (value: number | undefined, min: number, max: number): boolean =>
    value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max);
  if (options.depth !== undefined && options.depth !== 1 && options.depth !== 2) bad("depth must be 1 or 2");
  if (!whole(options.budget, 1, Number.MAX_SAFE_INTEGER)) bad("budget must be a positive integer");
  if (!whole(options.jobs, 1, 9999)) bad("jobs must be a positive integer");
  if (!whole(options.baselineRuns, 1, MAX_BASELINE_RUNS))
    bad(`baseline runs must be an integer from 1 to ${MAX_BASELINE_RUNS}`);
  if (!whole(options.seed, 0, MAX_SEED)) bad(`seed must be an integer from 0 to ${MAX_SEED}`);
  trialSettings(options, badOption);
}
