/**
 * The explore's terminal output: a header (with the seed), the baseline runs, the points and the
 * menu, one line per finished experiment with the estimated time left, then the matrix, the
 * pairs, the failures with their replay commands, the counts and the paths written. Colours only
 * on a terminal without NO_COLOR; the live `done/total` counter only on a terminal.
 */

import { isAbsolute, relative, resolve } from "node:path";
import { isReplayMismatch } from "../report/exit-code.js";
import type { ExploreDocument } from "../report/explore-document.js";
import { closingLines, resultRow } from "../report/terminal-rows.js";
import { rateText } from "../report/trials.js";
import { cellText, exploreMatrix } from "../reporters/explore-matrix.js";
import type { LiveTerminal } from "../terminal/live-output.js";
import { progressTerminal } from "../terminal/progress-terminal.js";
import { formatEta } from "../terminal/terminal.js";
import { pointLabel } from "./points.js";
import type { ExploreProgress } from "./progress.js";
import type { ExploreDone } from "./run-explore.js";

/** The matrix as text: a heading row, then one row per point; columns padded to their widest cell. */
export function renderMatrix(document: ExploreDocument): string {
  const matrix = exploreMatrix(document);
  const table = [
    ["POINT", ...matrix.columns.map((column) => column.label)],
    ...matrix.rows.map((row) => [row.point.label, ...row.cells.map(cellText)]),
  ];
  const widths =
    table[0]?.map((_, column) => Math.max(...table.map((line) => (line[column] ?? "").length))) ?? [];
  return table
    .map((line) =>
      line
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export interface ExploreTerminal {
  progress(event: ExploreProgress): void;
  finish(done: ExploreDone, wallMs: number): void;
}

export function exploreTerminal(terminal: LiveTerminal, cwd: string): ExploreTerminal {
  const { write, paint, clearCounter, showCounter } = progressTerminal(terminal);
  /** Relative to the working directory when inside it, else absolute. */
  const shown = (path: string): string => {
    const near = relative(cwd, path);
    return near === "" ? "." : near.startsWith("..") || isAbsolute(near) ? resolve(path) : near;
  };
  const line = (result: string, reason: string, ms: number, rest: string): string =>
    `${resultRow(result, reason, ms, rest, paint)}\n`;

  return {
    progress: (event) => {
      clearCounter();
      switch (event.kind) {
        case "start":
          write(
            `Agent Chaos explore\n\nScenario: ${event.scenarioName} (${event.scenarioPath})\nOutput:   ${shown(event.folder)}\nSeed:     ${event.seed}\nDepth: ${event.depth}   Budget: ${event.budget}   Jobs: ${event.jobs}\n${event.trials > 1 ? `Trials: ${event.trials} per experiment, minimum pass rate ${event.minPassRate}\n` : ""}\nBaseline: ${event.baselineRuns} ${event.baselineRuns === 1 ? "run" : "runs"}\n`,
          );
          break;
        case "baseline":
          write(
            line(
              event.run.result,
              event.run.reason_code,
              event.run.duration_ms,
              `baseline ${event.index + 1}`,
            ),
          );
          break;
        case "plan":
          if (event.depth === 1) {
            write(`\nInjection points: ${event.points.length}\n`);
            for (const point of event.points)
              write(`  ${pointLabel(point)}${point.relayedEvents === null ? "" : "  (event stream)"}\n`);
            for (const point of event.skipped) write(`  skipped, ${point.reason}: ${pointLabel(point)}\n`);
            write(`Menu: ${event.menu.map((entry) => entry.label).join(", ") || "(nothing applies)"}\n`);
            for (const entry of event.notAvailable) write(`  not available in this build: ${entry.label}\n`);
          }
          write(
            `\nDepth ${event.depth}: ${event.planned} ${event.planned === 1 ? "experiment" : "experiments"}${event.planned < event.candidates ? ` (a seeded sample of ${event.candidates})` : ""}\n`,
          );
          break;
        case "phase":
          if (event.phase === "confirm")
            write(`\nConfirming ${event.total} ${event.total === 1 ? "failure" : "failures"}\n`);
          break;
        case "experiment": {
          const { trial, done, total, etaMs } = event;
          const eta = done < total ? `  (ETA ${formatEta(etaMs)})` : "";
          const rate =
            trial.trials === undefined
              ? ""
              : `  ${trial.trials.passed}/${trial.trials.trials} passed, pass rate ${rateText(trial.trials)}, ${trial.trials.class}`;
          write(
            line(
              trial.result,
              trial.reason_code,
              trial.duration_ms,
              `[${done}/${total}] ${trial.label}${rate}${eta}`,
            ),
          );
          showCounter(`${done}/${total} done, about ${formatEta(etaMs)} left`);
          break;
        }
        case "confirmation": {
          const { trial, done, total } = event;
          const run = trial.confirmation;
          if (run === null) break;
          const verdict = trial.flaky ? "flaky" : "confirmed";
          write(
            line(
              run.result,
              run.reason_code,
              run.duration_ms,
              `[${done}/${total}] ${verdict}: ${trial.label}`,
            ),
          );
          break;
        }
      }
    },
    finish: (done, wallMs) => {
      clearCounter();
      const document = done.document;
      const parts: string[] = [];
      if (document.message !== null) parts.push(`\n${document.message}\n`);
      if (
        document.points.length > 0 &&
        document.menu.length > 0 &&
        document.status !== "menu_fits_no_point"
      ) {
        parts.push(`\nMatrix (depth 1):\n${renderMatrix(document)}\n`);
      }
      const pairs = document.experiments.filter((experiment) => experiment.depth === 2);
      if (document.settings.depth === 2 && document.candidates.depth_2 + pairs.length > 0) {
        const failedPairs = pairs.filter((pair) => pair.result === "FAILED" && !isReplayMismatch(pair));
        parts.push(`\nPairs (depth 2): ${pairs.length} run\n`);
        for (const pair of failedPairs) {
          parts.push(`  ${pair.flaky ? "flaky" : `FAILED ${pair.reason_code}`}  ${pair.label}\n`);
        }
      }
      const failures = document.experiments.filter((experiment) => experiment.replay !== null);
      if (failures.length > 0) {
        parts.push(`\nFailures (replay each alone):\n`);
        for (const failure of failures) {
          parts.push(`  ${failure.label}: ${failure.reason_code}\n`);
          parts.push(`    agentchaos run ${shown(`${done.folder}/${failure.replay}`)}\n`);
        }
      }
      const { summary } = document;
      parts.push(
        `\n${document.status === "interrupted" ? "Explore interrupted." : "Explore complete."} ${summary.experiments} ${summary.experiments === 1 ? "experiment" : "experiments"}: ${summary.passed} passed, ${summary.recovered} recovered, ${summary.failed} failed, ${summary.flaky} flaky\n`,
        closingLines(wallMs, done.written.map(shown)),
      );
      write(parts.join(""));
    },
  };
}
