/**
 * An event stream read event by event for a corruption (docs/faults.md): the bytes of each event
 * are kept exactly as received until the event is complete, then handed on unchanged or with the
 * JSON of its `data` rewritten. Events are framed as the fault's stream rewrites frame them.
 */
import { type SseMessage, SseSplitter } from "../misbehave/sse-messages.js";

/** Rewrites the data of one complete event; null keeps it as it was. */
export type EventRewrite = (data: string) => string | null;

export class EventStreamRewriter {
  readonly #splitter = new SseSplitter();
  readonly #rewrite: EventRewrite;

  constructor(rewrite: EventRewrite) {
    this.#rewrite = rewrite;
  }

  /** The text of the events this chunk completed (possibly rewritten). */
  push(chunk: Buffer): string {
    let out = "";
    this.#splitter.push(chunk, (message) => {
      out += this.#event(message);
    });
    return out;
  }

  /** Whatever is still held (an unfinished last event, as received). */
  end(): string {
    let out = "";
    this.#splitter.end((message, complete) => {
      out += complete ? this.#event(message) : message.raw.toString("utf8");
    });
    return out;
  }

  /**
   * One complete event, its data rewritten in place of its first `data` line (one line per line
   * of the new data, with that line's end); its other lines and their line ends kept.
   */
  #event(message: SseMessage): string {
    const text = message.raw.toString("utf8");
    const rewritten = message.data === null ? null : this.#rewrite(message.data);
    if (rewritten === null) return text;
    const pieces = text.split(/(\r\n|\r|\n)/);
    let out = "";
    let written = false;
    for (let index = 0; index < pieces.length; index += 2) {
      const line = pieces[index] as string;
      const end = pieces[index + 1] ?? "";
      if (line !== "data" && !line.startsWith("data:")) out += line + end;
      else if (!written) {
        written = true;
        out += rewritten
          .split("\n")
          .map((piece) => `data: ${piece}${end}`)
          .join("");
      }
    }
    return out;
  }
}
