import { StringDecoder } from "node:string_decoder";

/**
 * Reads a `text/event-stream` incrementally and returns the `data` of each event as it is
 * completed (text/event-stream rules: lines end with CRLF, LF or CR; `data` lines of one event
 * join with `\n`; a blank line dispatches; events without data are not dispatched). Linear in
 * the stream's size however it is chunked: only the new text is searched for line ends, and an
 * unfinished line is kept in pieces, joined once when it ends.
 */
export class SseDataReader {
  readonly #decoder = new StringDecoder("utf8");
  /** The unfinished line, in pieces. */
  #pieces: string[] = [];
  /** The unfinished line ended with a CR at the end of a chunk: a LF first in the next one is its pair. */
  #heldCr = false;
  #data: string[] = [];

  /** The data of every event that `chunk` completes, in order. */
  push(chunk: Buffer): string[] {
    const text = this.#decoder.write(chunk);
    const events: string[] = [];
    if (text === "") return events;
    const lineEnd = /[\r\n]/g;
    let start = 0;
    if (this.#heldCr) {
      this.#heldCr = false;
      this.#endLine("", events);
      if (text.charCodeAt(0) === 0x0a) start = 1;
    }
    lineEnd.lastIndex = start;
    for (let found = lineEnd.exec(text); found !== null; found = lineEnd.exec(text)) {
      const end = found.index;
      if (text.charCodeAt(end) === 0x0d && end === text.length - 1) {
        // Maybe the first half of a CRLF: the line ends for sure with the next chunk.
        this.#pieces.push(text.slice(start, end));
        this.#heldCr = true;
        return events;
      }
      this.#endLine(text.slice(start, end), events);
      start = end + 1;
      if (text.charCodeAt(end) === 0x0d && text.charCodeAt(start) === 0x0a) start++;
      lineEnd.lastIndex = start;
    }
    if (start < text.length) this.#pieces.push(text.slice(start));
    return events;
  }

  /** The line whose last piece is `last` ended. */
  #endLine(last: string, events: string[]): void {
    const line = this.#pieces.length === 0 ? last : this.#pieces.join("") + last;
    this.#pieces = [];
    if (line === "") {
      if (this.#data.length > 0) events.push(this.#data.join("\n"));
      this.#data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return;
    const value = colon < 0 ? "" : line.slice(colon + 1);
    this.#data.push(value.startsWith(" ") ? value.slice(1) : value);
  }
}
