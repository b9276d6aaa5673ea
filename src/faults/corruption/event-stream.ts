/**
 * An event stream read event by event for a corruption (docs/faults.md): the bytes of each event
 * are kept exactly as received until the event is complete, then handed on unchanged or with the
 * JSON of its `data` rewritten. Line ends may be CRLF, LF or CR (a CR at a chunk's end waits for
 * the next chunk). Each byte is looked at once.
 */
import { StringDecoder } from "node:string_decoder";

interface Line {
  readonly text: string;
  readonly end: string;
}

/** Rewrites the data of one complete event; null keeps it as it was. */
export type EventRewrite = (data: string) => string | null;

export class EventStreamRewriter {
  readonly #decoder = new StringDecoder("utf8");
  readonly #rewrite: EventRewrite;
  #pending = "";
  /** Where in `#pending` the search for a line end resumes (what is before it holds none). */
  #scanFrom = 0;
  #lines: Line[] = [];

  constructor(rewrite: EventRewrite) {
    this.#rewrite = rewrite;
  }

  /** The text of the events this chunk completed (possibly rewritten). */
  push(chunk: Buffer): string {
    this.#pending += this.#decoder.write(chunk);
    return this.#drain(false);
  }

  /** Whatever is still held (an unfinished last event, as received). */
  end(): string {
    this.#pending += this.#decoder.end();
    const out = this.#drain(true);
    const rest = this.#lines.map((line) => line.text + line.end).join("") + this.#pending;
    this.#lines = [];
    this.#pending = "";
    this.#scanFrom = 0;
    return out + rest;
  }

  #drain(final: boolean): string {
    let out = "";
    let start = 0;
    const text = this.#pending;
    let i = this.#scanFrom;
    for (; i < text.length; i += 1) {
      const char = text[i];
      if (char !== "\n" && char !== "\r") continue;
      let end = char;
      if (char === "\r") {
        if (i + 1 === text.length && !final) break;
        if (text[i + 1] === "\n") end = "\r\n";
      }
      const line = { text: text.slice(start, i), end };
      i += end.length - 1;
      start = i + 1;
      if (line.text === "") out += this.#event(line);
      else this.#lines.push(line);
    }
    this.#pending = text.slice(start);
    this.#scanFrom = Math.min(i, text.length) - start;
    return out;
  }

  /** A blank line ended the event held in `#lines`. */
  #event(blank: Line): string {
    const lines = this.#lines;
    this.#lines = [];
    const raw = (): string => lines.map((line) => line.text + line.end).join("") + blank.end;
    const data = lines.filter((line) => isData(line.text)).map((line) => dataValue(line.text));
    if (data.length === 0) return raw();
    const rewritten = this.#rewrite(data.join("\n"));
    if (rewritten === null) return raw();
    let out = "";
    let written = false;
    for (const line of lines) {
      if (!isData(line.text)) out += line.text + line.end;
      else if (!written) {
        written = true;
        out += rewritten
          .split("\n")
          .map((piece) => `data: ${piece}${line.end}`)
          .join("");
      }
    }
    return out + blank.end;
  }
}

function isData(line: string): boolean {
  return line === "data" || line.startsWith("data:");
}

/** The field value: after `data:` and one optional space. */
function dataValue(line: string): string {
  const value = line.slice(5);
  return value.startsWith(" ") ? value.slice(1) : value;
}
