/**
 * The depth-1 matrix of an explore (docs/explore.md, "Output"): rows are the injection points, columns
 * the menu entries, each cell the experiment of that point and entry — or why there is none.
 * Pure; the terminal and the HTML page both draw it.
 */
import { isReplayMismatch } from "../report/exit-code.js";
import type { ExperimentRecord, ExploreDocument } from "../report/explore-document.js";

export type MatrixCell =
  | { readonly kind: "experiment"; readonly experiment: ExperimentRecord }
  /** The entry does not apply to the point (or was not sampled / not reached). */
  | { readonly kind: "not_applicable" }
  | { readonly kind: "not_run" };

export interface MatrixRow {
  readonly point: ExploreDocument["points"][number];
  readonly cells: readonly MatrixCell[];
}

export interface Matrix {
  readonly columns: ExploreDocument["menu"];
  readonly rows: readonly MatrixRow[];
}

/**
 * Builds the matrix. A cell without an experiment is `not_run` when the point and entry were a
 * depth-1 candidate (left out by the budget's sample, or by an interruption), else `not_applicable`.
 */
export function exploreMatrix(document: ExploreDocument): Matrix {
  const byCell = new Map<string, ExperimentRecord>();
  for (const experiment of document.experiments) {
    const [only] = experiment.faults;
    if (experiment.depth === 1 && only !== undefined)
      byCell.set(`${only.point}\u0000${only.menu}`, experiment);
  }
  const rows = document.points.map((point) => ({
    point,
    cells: document.menu.map((entry): MatrixCell => {
      const experiment = byCell.get(`${point.id}\u0000${entry.id}`);
      if (experiment !== undefined) return { kind: "experiment", experiment };
      return point.menu.includes(entry.id) ? { kind: "not_run" } : { kind: "not_applicable" };
    }),
  }));
  return { columns: document.menu, rows };
}

/**
 * The cell's words: `passed`, `recovered`, `FAILED <reason>`, `flaky`, `not run`, `not recorded`
 * (a replayed run asked what its cassette never recorded: docs/replay.md) or `-`. With
 * trials: the pass rate, then `flaky` for a flaky series and `FAILED <reason>` below the minimum
 * (`1.00`, `0.80 flaky`, `0.40 flaky FAILED RECOVERY_NOT_OBSERVED`).
 */
export function cellText(cell: MatrixCell): string {
  if (cell.kind === "not_applicable") return "-";
  if (cell.kind === "not_run") return "not run";
  const { experiment } = cell;
  if (isReplayMismatch(experiment)) return "not recorded";
  const trials = experiment.trials;
  if (trials !== undefined) {
    const flaky = trials.class === "flaky" ? " flaky" : "";
    const failed = experiment.result === "FAILED" ? ` FAILED ${experiment.reason_code}` : "";
    return `${trials.pass_rate.toFixed(2)}${flaky}${failed}`;
  }
  if (experiment.flaky) return "flaky";
  if (experiment.result === "FAILED") return `FAILED ${experiment.reason_code}`;
  return experiment.result === "PASSED" ? "passed" : "recovered";
}
