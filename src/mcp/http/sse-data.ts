import { StringDecoder } from "node:string_decoder";

/**
 * Reads a `text/event-stream` incrementally and returns the `data` of each event as it is
 * completed (text/event-stream rules: lines end with CRLF, LF or CR; `data` lines of one event
 * join with `\n`; a blank line dispatches; events without data are not dispatched).
 */
export class SseDataReader {
  readonly #decoder = new StringDecoder("utf8");
  #pending = "";
  #data: string[] = [];

  /** The data of every event that `chunk` completes, in order. */
  push(chunk: Buffer): string[] {
    let text = this.#pending + this.#decoder.write(chunk);
    // A CR at the very end may be the first half of a CRLF: keep it for the next chunk.
    const heldCr = text.endsWith("\r");
    if (heldCr) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    this.#pending = (lines.pop() as string) + (heldCr ? "\r" : "");
    const events: string[] = [];
    for (const line of lines) {
      if (line === "") {
        if (this.#data.length > 0) events.push(this.#data.join("\n"));
        this.#data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      if (field !== "data") continue;
      const value = colon < 0 ? "" : line.slice(colon + 1);
      this.#data.push(value.startsWith(" ") ? value.slice(1) : value);
    }
    return events;
  }
}
