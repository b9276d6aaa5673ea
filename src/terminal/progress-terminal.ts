import type { LiveTerminal } from "./live-output.js";
import { useColour } from "./terminal.js";

/** The colour of each result (and of a flaky experiment) on a terminal. */
const RESULT_COLOURS: Readonly<Record<string, number>> = { PASSED: 32, RECOVERED: 36, FAILED: 31, FLAKY: 33 };

/**
 * What the suite's, the trials' and the explore's terminal output share: results painted only on
 * a terminal without NO_COLOR, and a live counter shown only on a terminal, cleared before the
 * next line is written.
 */
export interface ProgressTerminal {
  /** Whether the output is a terminal. */
  readonly tty: boolean;
  write(text: string): void;
  /** `text` in the colour of `result`, when colours are on. */
  paint(result: string, text: string): string;
  /** Shows `text` as the live counter (on a terminal only) until `clearCounter`. */
  showCounter(text: string): void;
  clearCounter(): void;
}

export function progressTerminal(terminal: LiveTerminal): ProgressTerminal {
  const tty = terminal.stream.isTTY === true;
  const colour = useColour(terminal.stream.isTTY, terminal.env);
  const write = (text: string): void => {
    terminal.stream.write(text);
  };
  let counterShown = false;
  return {
    tty,
    write,
    paint: (result, text) =>
      colour && RESULT_COLOURS[result] !== undefined
        ? `\u001b[${RESULT_COLOURS[result]}m${text}\u001b[0m`
        : text,
    showCounter: (text) => {
      if (!tty) return;
      write(text);
      counterShown = true;
    },
    clearCounter: () => {
      if (counterShown) write("\r\u001b[K");
      counterShown = false;
    },
  };
}
