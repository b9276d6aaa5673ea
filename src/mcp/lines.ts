const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines, each handed over with its `\n` and its bytes untouched, so
 * that relaying every line relays the stream exactly. Buffers at most one incomplete line.
 */
export class LineSplitter {
  #pending: Buffer | null = null;

  /** Calls `onLine` with every line completed by `chunk`. */
  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    if (newline !== -1 && this.#pending !== null) {
      const line = Buffer.concat([this.#pending, chunk.subarray(0, newline + 1)]);
      this.#pending = null;
      start = newline + 1;
      onLine(line);
      newline = chunk.indexOf(NEWLINE, start);
    }
    while (newline !== -1) {
      onLine(chunk.subarray(start, newline + 1));
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.#pending = this.#pending === null ? Buffer.from(rest) : Buffer.concat([this.#pending, rest]);
    }
  }

  /** The incomplete last line, if any (at the end of the stream). */
  rest(): Buffer | null {
    const rest = this.#pending;
    this.#pending = null;
    return rest;
  }
}

/** A line's text for parsing: without its `\n` or `\r\n`. */
export function lineText(line: Buffer): string {
  let end = line.length;
  if (end > 0 && line[end - 1] === NEWLINE) end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  return line.toString("utf8", 0, end);
}
