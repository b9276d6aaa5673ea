/**
 * The terminal output of `run --trials` (see docs/trials.md): a header, one line per trial as it
 * ends, a live `done/total` counter with the estimated time left on a terminal only, then the
 * series' summary line, its verdict against the minimum pass rate and the file written. Colours
 * only on a terminal without NO_COLOR.
 */

import { closingLines } from "../report/terminal-rows.js";
import { type TrialRun, trialRunLine, trialsLine } from "../report/trials.js";
import { terminalSafe } from "../support/terminal-text.js";
import type { LiveTerminal } from "../terminal/live-output.js";
import { progressTerminal } from "../terminal/progress-terminal.js";
import { formatEta } from "../terminal/terminal.js";
import type { TrialsDone } from "./run-trials.js";

export interface TrialsTerminal {
  start(info: { readonly folder: string; readonly trials: number; readonly jobs: number }): void;
  trial(run: TrialRun, progress: { readonly done: number; readonly total: number }): void;
  finish(done: TrialsDone, wallMs: number): void;
}

/** `now` is the clock the time left is estimated with (milliseconds). */
export function trialsTerminal(
  terminal: LiveTerminal,
  scenarioName: string,
  now: () => number = Date.now,
): TrialsTerminal {
  const { write, paint, clearCounter, ...output } = progressTerminal(terminal);
  let startedAt = 0;
  const showCounter = (done: number, total: number): void => {
    if (!output.tty || done >= total) return;
    const left = done === 0 ? "" : `, about ${formatEta(((now() - startedAt) / done) * (total - done))} left`;
    output.showCounter(`${done}/${total} done${left}`);
  };

  return {
    start: ({ folder, trials, jobs }) => {
      startedAt = now();
      write(
        `Agent Chaos trials\n\nScenario: ${terminalSafe(scenarioName)}\nTrials: ${trials}\nJobs: ${jobs}\nOutput: ${terminalSafe(folder)}\n\n`,
      );
      showCounter(0, trials);
    },
    trial: (run, { done, total }) => {
      clearCounter();
      write(`${trialRunLine(run, total, { paint })}\n`);
      showCounter(done, total);
    },
    finish: (done, wallMs) => {
      clearCounter();
      const { document } = done;
      const heading = document.interrupted
        ? `Trials interrupted: ${document.trials} of ${document.requested} finished.`
        : "Trials complete.";
      const verdict = document.passes ? "reached" : "not reached";
      write(
        [
          `\n${heading}\n\n`,
          `${trialsLine(document)}\n`,
          `Minimum pass rate: ${document.min_pass_rate} (${verdict})\n`,
          closingLines(wallMs, done.written.map(terminalSafe)),
        ].join(""),
      );
    },
  };
}
