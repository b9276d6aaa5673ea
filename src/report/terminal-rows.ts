/**
 * The lines the suite's, the trials' and the explore's terminal output share: a result row in
 * fixed columns (result, reason, duration, then what it is about) and the closing wall time and
 * paths written.
 */
import { terminalSafe } from "../support/terminal-text.js";

/** Milliseconds as seconds with two decimals: `1.50s`. */
export function secondsText(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(2)}s`;
}

/**
 * `RESULT     REASON                           1.50s  <about>`: the result padded to 9 characters
 * (then painted, on a terminal), the reason to 27, the duration right-aligned to 8.
 */
export function resultRow<Result extends string>(
  result: Result,
  reason: string,
  ms: number,
  about: string,
  paint: (result: Result, text: string) => string = (_result, text) => text,
): string {
  return `${paint(result, result.padEnd(9))}  ${terminalSafe(reason).padEnd(27)}  ${secondsText(ms).padStart(8)}  ${about}`;
}

/** `Wall time: 3.50s`, a blank line, then `Written:` and one path a line. */
export function closingLines(wallMs: number, written: readonly string[]): string {
  return `Wall time: ${secondsText(wallMs)}\n\nWritten:\n${written.join("\n")}\n`;
}
