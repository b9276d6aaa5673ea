/**
 * The terminal output of `run --trials` (see docs/trials.md): a header, one line per trial as it
 * ends, a live `done/total` counter with the estimated time left on a terminal only, then the
 * series' summary line, its verdict against the minimum pass rate and the file written. Colours
 * only on a terminal without NO_COLOR.
 */

import { type TrialRun, trialRunLine, trialsLine } from "../report/trials.js";
import type { LiveTerminal } from "../runtime/live-output.js";
import { formatEta, useColour } from "../runtime/terminal.js";
import { terminalSafe } from "../support/terminal-text.js";
import type { TrialsDone } from "./run-trials.js";

const COLOUR: Readonly<Record<string, number>> = { PASSED: 32, RECOVERED: 36, FAILED: 31 };

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
  const tty = terminal.stream.isTTY === true;
  const colour = useColour(terminal.stream.isTTY, terminal.env);
  const paint = (result: string, text: string): string =>
    colour && COLOUR[result] !== undefined ? `\u001b[${COLOUR[result]}m${text}\u001b[0m` : text;
  const write = (text: string): void => {
    terminal.stream.write(text);
  };
  let startedAt = 0;
  let counterShown = false;
  const clearCounter = (): void => {
    if (counterShown) write("\r\u001b[K");
    counterShown = false;
  };
  const showCounter = (done: number, total: number): void => {
    if (!tty || done >= total) return;
    const left = done === 0 ? "" : `, about ${formatEta(((now() - startedAt) / done) * (total - done))} left`;
    write(`${done}/${total} done${left}`);
    counterShown = true;
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
          `Wall time: ${(wallMs / 1000).toFixed(2)}s\n`,
          `\nWritten:\n${done.written.map(terminalSafe).join("\n")}\n`,
        ].join(""),
      );
    },
  };
}
