/**
 * Text that did not come from Agent Chaos itself (request paths, scenario and workload names,
 * workload output, file paths, command-line arguments) is passed through `terminalSafe` before
 * it reaches a terminal or a CI log, so that it can never move the cursor, recolour the screen,
 * start a new line or fake a line of its own (`\r\nResult: PASSED`).
 *
 * Escaped, as `\xHH` or `\u{HHHH}`: the C0 controls except tab (so CR, LF and ESC), DEL, the
 * C1 controls, the Unicode line and paragraph separators, and the bidirectional formatting
 * characters (which can make a line read differently from its bytes). Everything else,
 * backslashes included, is kept as it is, so ordinary text prints byte for byte.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
}

/** `text` with every unsafe character replaced by its escape; a one-line result for one-line use. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}
