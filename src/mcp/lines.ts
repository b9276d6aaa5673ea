const NEWLINE = 0x0a;

/** The longest JSON-RPC line the shim relays, in bytes, its newline not counted (64 MiB). */
export const STDIO_LINE_LIMIT = 64 * 1024 * 1024;

/** What takes the bytes of a line that grew past the splitter's limit, instead of the splitter. */
export interface OversizedLine {
  /** More bytes of the line, in order (its newline never): first those held, then the rest as it arrives. */
  data(piece: Buffer): void;
  /** The line ended: at its newline (`complete`), or with the stream. */
  end(complete: boolean): void;
}

export interface LineSplitterOptions {
  /** The longest line handed over whole, in bytes, its newline not counted (default: no limit). */
  readonly limit?: number;
  /** Called when a line grows past `limit`: the line's bytes go to what it returns, never to `onLine`. */
  readonly oversized?: () => OversizedLine;
}

const DISCARD: OversizedLine = { data: () => {}, end: () => {} };

/**
 * Splits a byte stream into lines, each handed over with its `\n` and its bytes untouched, so
 * that relaying every line relays the stream exactly. Time and memory are linear in a line's
 * size however it is chunked: the incomplete line is kept as a list of pieces and joined once,
 * when its newline arrives, and only the new chunk is searched for the newline. A line longer
 * than the limit is never held: its bytes stream to the `oversized` handler instead.
 */
export class LineSplitter {
  readonly #limit: number;
  readonly #oversized: () => OversizedLine;
  #parts: Buffer[] = [];
  #size = 0;
  #overflow: OversizedLine | null = null;

  constructor(options: LineSplitterOptions = {}) {
    this.#limit = options.limit ?? Number.POSITIVE_INFINITY;
    this.#oversized = options.oversized ?? (() => DISCARD);
  }

  /** Calls `onLine` with every line completed by `chunk` (whose memory must not be reused). */
  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      const tail = chunk.subarray(start, newline + 1);
      start = newline + 1;
      if (this.#overflow === null && this.#size + tail.length - 1 <= this.#limit) {
        const line =
          this.#parts.length === 0 ? tail : Buffer.concat([...this.#parts, tail], this.#size + tail.length);
        this.#parts = [];
        this.#size = 0;
        onLine(line);
      } else {
        const overflow = this.#overflowWith(tail.subarray(0, tail.length - 1));
        this.#overflow = null;
        overflow.end(true);
      }
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start === chunk.length) return;
    const rest = start === 0 ? chunk : chunk.subarray(start);
    if (this.#overflow === null && this.#size + rest.length <= this.#limit) {
      // A chunk's tail is copied, so that a small line start does not keep a whole chunk alive.
      this.#parts.push(start === 0 ? chunk : Buffer.from(rest));
      this.#size += rest.length;
    } else {
      this.#overflow = this.#overflowWith(rest);
    }
  }

  /** The stream ended: an incomplete last line goes to `onLine` (or ends its oversized handler). */
  end(onLine: (line: Buffer) => void): void {
    const overflow = this.#overflow;
    const parts = this.#parts;
    const size = this.#size;
    this.#overflow = null;
    this.#parts = [];
    this.#size = 0;
    if (overflow !== null) overflow.end(false);
    else if (parts.length > 0) onLine(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size));
  }

  /** The handler of the oversized line, given every held piece and then `piece`. */
  #overflowWith(piece: Buffer): OversizedLine {
    let overflow = this.#overflow;
    if (overflow === null) {
      overflow = this.#oversized();
      for (const part of this.#parts) overflow.data(part);
      this.#parts = [];
      this.#size = 0;
    }
    if (piece.length > 0) overflow.data(piece);
    return overflow;
  }
}

/** A line's text for parsing: without its `\n` or `\r\n`. */
export function lineText(line: Buffer): string {
  let end = line.length;
  if (end > 0 && line[end - 1] === NEWLINE) end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  return line.toString("utf8", 0, end);
}
