/**
 * The suite's terminal output (docs/suites.md): a line per finished scenario in completion order, a
 * live `done/total` counter on a TTY only, colours only on a TTY without NO_COLOR, then the
 * summary table and the paths written. `--quiet` prints only the summary. With trials, a line
 * per finished trial too, and each scenario's line followed by its trials' summary line.
 */

import type { SuiteEntry } from "../report/suite-document.js";
import { closingLines, resultRow } from "../report/terminal-rows.js";
import { type TrialRun, trialRunLine, trialsLine } from "../report/trials.js";
import { terminalSafe } from "../support/terminal-text.js";
import type { LiveTerminal } from "../terminal/live-output.js";
import { progressTerminal } from "../terminal/progress-terminal.js";
import type { SuiteDone } from "./run-suite.js";

export interface SuiteTerminal {
  start(info: {
    readonly total: number;
    readonly folder: string;
    readonly jobs: number;
    readonly skipped: string | null;
  }): void;
  entry(entry: SuiteEntry, progress: { readonly done: number; readonly total: number }): void;
  trial(trial: { readonly name: string; readonly run: TrialRun; readonly total: number }): void;
  finish(done: SuiteDone, wallMs: number): void;
}

export function suiteTerminal(terminal: LiveTerminal, quiet: boolean): SuiteTerminal {
  const { write, paint, clearCounter, ...output } = progressTerminal(terminal);
  const showCounter = (done: number, total: number): void => {
    if (!quiet) output.showCounter(`${done}/${total} done`);
  };
  const row = (entry: SuiteEntry): string =>
    `${resultRow(entry.result, entry.reason_code, entry.duration_ms, entry.name, paint)}\n${
      entry.trials === undefined ? "" : `${" ".repeat(11)}${trialsLine(entry.trials)}\n`
    }`;
  let lastDone = 0;
  let lastTotal = 0;

  return {
    start: ({ total, folder, jobs, skipped }) => {
      lastTotal = total;
      if (quiet) return;
      const skippedLine = skipped === null ? "" : `${terminalSafe(skipped)}\n`;
      write(`Agent Chaos suite\n\nScenarios: ${total}\n${skippedLine}Jobs: ${jobs}\nOutput: ${folder}\n\n`);
      showCounter(0, total);
    },
    entry: (entry, { done, total }) => {
      lastDone = done;
      lastTotal = total;
      if (quiet) return;
      clearCounter();
      write(row(entry));
      showCounter(done, total);
    },
    trial: ({ name, run, total }) => {
      if (quiet) return;
      clearCounter();
      write(`${trialRunLine(run, total, { paint })}  ${terminalSafe(name)}\n`);
      if (lastTotal > 0) showCounter(lastDone, lastTotal);
    },
    finish: (done, wallMs) => {
      clearCounter();
      const entries = done.document.entries;
      const count = (result: string): number => entries.filter((entry) => entry.result === result).length;
      const lines = [
        `\n${done.document.interrupted ? "Suite interrupted." : "Suite complete."}\n\n`,
        `${"RESULT".padEnd(9)}  ${"REASON".padEnd(27)}  ${"DURATION".padStart(8)}  SCENARIO\n`,
        ...entries.map(row),
        `\n${entries.length} ${entries.length === 1 ? "scenario" : "scenarios"}: ${count("PASSED")} passed, ${count("RECOVERED")} recovered, ${count("FAILED")} failed`,
        entries.some((entry) => entry.trials !== undefined)
          ? `, ${entries.filter((entry) => entry.trials?.class === "flaky").length} flaky`
          : "",
        done.notStarted > 0 ? ` (${done.notStarted} not started)` : "",
        `\n${closingLines(wallMs, done.written)}`,
      ];
      write(lines.join(""));
    },
  };
}
