import { StringDecoder } from "node:string_decoder";

/** Output longer than this without a newline is echoed in pieces of this many characters. */
export const MAX_ECHO_LINE = 4096;

/**
 * Cuts a byte stream into lines for terminal echo: UTF-8 decoded across chunk boundaries, the
 * newline (and a `\r` before it) removed, and a line longer than `width` characters split into
 * pieces of `width` (a piece goes out once a character beyond it arrives, so the pieces do not
 * depend on where the chunks end). Each character is looked at a fixed number of times and at
 * most `width` characters are ever held back, however long the output runs without a newline.
 */
export class LineSplitter {
  readonly #decoder = new StringDecoder("utf8");
  readonly #onLine: (line: string) => void;
  readonly #width: number;
  #pending = "";

  constructor(onLine: (line: string) => void, width = MAX_ECHO_LINE) {
    this.#onLine = onLine;
    this.#width = width;
  }

  push(chunk: Buffer): void {
    const text = this.#decoder.write(chunk);
    let start = 0;
    let newline = text.indexOf("\n");
    while (start < text.length) {
      if (newline !== -1 && newline < start) newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const room = this.#width - this.#pending.length;
      if (newline !== -1 && end - start <= room) {
        const line = this.#pending + text.slice(start, end);
        this.#pending = "";
        start = end + 1;
        this.#onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      } else if (end - start > room) {
        // With characters held back, the piece may take none of the new ones (never half a pair).
        const cut = pieceEnd(text, start, start + room, this.#pending === "" ? start + 1 : start);
        const piece = this.#pending + text.slice(start, cut);
        this.#pending = "";
        start = cut;
        this.#onLine(piece);
      } else {
        this.#pending += text.slice(start, end);
        start = end;
      }
    }
  }

  /** The stream ended: a last line without a newline is passed on as it is. */
  end(): void {
    const rest = this.#pending + this.#decoder.end();
    this.#pending = "";
    if (rest !== "") this.#onLine(rest);
  }
}

/** `end`, moved back by one when it would split a surrogate pair (never below `lowest`). */
function pieceEnd(text: string, start: number, end: number, lowest: number): number {
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff && end > start && end - 1 >= lowest ? end - 1 : end;
}
