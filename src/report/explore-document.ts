/**
 * `explore.json` (docs/explore.md, "explore.json"): the one record of an
 * explore, written always — also when the baseline fails or the explore is interrupted.
 * Two-space JSON, keys in the order declared here, final newline. Version 1; version 2 when the
 * experiments ran as trials (see docs/trials.md).
 */

import type { TrialsRecord } from "../report/trials.js";
import { isReplayMismatch } from "./exit-code.js";
import type { RunOutcomeRecord, SuiteVerify } from "./suite-document.js";

export const EXPLORE_FILE_NAME = "explore.json";

/** How the explore ended. */
export type ExploreStatus =
  /** Every planned experiment ran. */
  | "completed"
  /** Stopped by SIGINT/SIGTERM (or the library's signal); finished experiments kept. */
  | "interrupted"
  /** A baseline run did not pass: no experiments. */
  | "baseline_failed"
  /** The baseline passed without a single operation to inject into. */
  | "no_operations"
  /** A menu file's entry fits none of the injection points. */
  | "menu_fits_no_point";

export interface RunRecord extends RunOutcomeRecord {
  /** Relative to the explore folder; null when no run folder was made. */
  readonly run_folder: string | null;
  /** Only for a run whose scenario has a verify command: how it ended (null: it did not run). */
  readonly verify?: SuiteVerify | null;
}

/** Where an injection point is: the k-th operation of a method and path on a dependency. */
export interface PointPlace {
  /** `<dependency> <METHOD> <path> #<k>`. */
  readonly label: string;
  readonly dependency: string;
  readonly protocol: "http" | "mcp";
  readonly method: string;
  readonly path: string;
  readonly k: number;
}

/** In the file `id` comes first, then the place. */
export interface PointRecord extends PointPlace {
  readonly id: string;
  /** Events relayed in the baseline's response when it was an event stream (fewest over the runs), else null. */
  readonly relayed_events: number | null;
  /** The ids of the menu entries that apply to it (its depth-1 candidates). */
  readonly menu: readonly string[];
}

export interface SkippedPointRecord extends PointPlace {
  readonly reason: "unstable" | "untargetable";
  readonly seen_in_runs: number;
}

export interface MenuRecord {
  readonly id: string;
  readonly label: string;
  /** The fault body: type, its own keys, `expect` when not `recover`. */
  readonly fault: Record<string, unknown>;
}

export interface UnavailableRecord {
  readonly label: string;
  readonly fault: Record<string, unknown>;
  readonly reason: string;
}

export interface ExperimentFaultRecord {
  readonly point: string;
  readonly menu: string;
  /** The fault exactly as the experiment's scenario (and replay) writes it. */
  readonly fault: Record<string, unknown>;
}

/**
 * One experiment. Run with trials, its `result`, `reason_code`, `exit_code`, `duration_ms` and
 * `run_folder` sum up its series: FAILED below the minimum pass rate (with the most frequent
 * failing reason), else the most frequent passing result; the durations' sum; the trials folder.
 */
export interface ExperimentRecord extends RunRecord {
  /** `E1`, `E2`, ... in plan order (depth 1 first). */
  readonly id: string;
  readonly depth: 1 | 2;
  /** `<point> | <menu entry>`, pairs joined with ` + `. */
  readonly label: string;
  readonly faults: readonly ExperimentFaultRecord[];
  /**
   * A failure whose confirmation run did not fail: not counted as a failure. With trials: a
   * `flaky` series whose pass rate reaches the minimum.
   */
  readonly flaky: boolean;
  /** The confirmation run of a failure; null for other experiments (and when interrupted before it). */
  readonly confirmation: RunRecord | null;
  /** `replays/NN-<slug>.yaml` for a failure, relative to the explore folder; else null. */
  readonly replay: string | null;
  /** Only with trials: the series' summary (trial run folders relative to the explore folder). */
  readonly trials?: TrialsRecord;
}

export interface ExploreSummary {
  readonly experiments: number;
  readonly passed: number;
  readonly recovered: number;
  /** Failures, flaky ones excluded. */
  readonly failed: number;
  readonly flaky: number;
}

export interface ExploreDocument {
  /** 2 when the experiments ran as trials, else 1. */
  readonly schema_version: 1 | 2;
  readonly explore_id: string;
  readonly scenario: { readonly path: string; readonly name: string; readonly schema_version: 1 | 2 };
  readonly started_at: string;
  readonly finished_at: string;
  readonly status: ExploreStatus;
  /** One line saying why the explore stopped early; null when completed. */
  readonly message: string | null;
  readonly settings: {
    readonly depth: 1 | 2;
    readonly budget: number;
    readonly jobs: number;
    readonly baseline_runs: number;
    readonly seed: number;
    /** `default`, or the menu file's path as given. */
    readonly menu: string;
    /** Only with trials: the trials of each experiment. */
    readonly trials?: number;
    /** Only with trials: the least pass rate with which an experiment passes. */
    readonly min_pass_rate?: number;
  };
  readonly baseline: readonly RunRecord[];
  readonly points: readonly PointRecord[];
  readonly skipped_points: readonly SkippedPointRecord[];
  readonly menu: readonly MenuRecord[];
  readonly not_available: readonly UnavailableRecord[];
  /** How many experiments each depth could have run before the budget's sample. */
  readonly candidates: { readonly depth_1: number; readonly depth_2: number };
  readonly experiments: readonly ExperimentRecord[];
  readonly summary: ExploreSummary;
}

export function summarize(experiments: readonly ExperimentRecord[]): ExploreSummary {
  const count = (test: (record: ExperimentRecord) => boolean): number => experiments.filter(test).length;
  return {
    experiments: experiments.length,
    passed: count((record) => record.result === "PASSED"),
    recovered: count((record) => record.result === "RECOVERED"),
    // A cell its cassette never recorded (docs/replay.md) is not a failure of the agent.
    failed: count((record) => record.result === "FAILED" && !record.flaky && !isReplayMismatch(record)),
    flaky: count((record) => record.flaky),
  };
}

/** The file text: keys in declaration order, two spaces, final newline. */
export function serializeExplore(document: ExploreDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
