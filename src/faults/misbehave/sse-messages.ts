import { SseEventCounter } from "../../support/sse-events.js";

/** One complete server-sent event as it arrived, with the fields a provider's stream uses. */
export interface SseMessage {
  /** The event's bytes, line end of its empty line included. */
  readonly raw: Buffer;
  /** The last `event:` value, or null. */
  readonly event: string | null;
  /** The `data:` lines joined with LF, or null when there is none. */
  readonly data: string | null;
}

/**
 * Splits an event stream, arriving in chunks split anywhere, into its complete events (the SSE
 * rules of the cut point: docs/faults.md). Only the bytes of the event being read are kept.
 */
export class SseSplitter {
  readonly #counter = new SseEventCounter();
  #parts: Buffer[] = [];

  /** Feeds one chunk; `each` receives every event it completes, in order. */
  push(chunk: Buffer, each: (message: SseMessage) => void): void {
    let rest = chunk;
    while (rest.length > 0) {
      const at = this.#counter.scan(rest, this.#counter.count + 1);
      if (at < 0) {
        this.#parts.push(rest);
        return;
      }
      this.#parts.push(rest.subarray(0, at));
      rest = rest.subarray(at);
      each(this.#take());
    }
  }

  /**
   * The stream ended: an event completed by its last byte (`complete`), or else any unfinished
   * tail, read as far as it goes.
   */
  end(each: (message: SseMessage, complete: boolean) => void): void {
    const before = this.#counter.count;
    const complete = this.#counter.end() > before;
    if (complete || this.#parts.length > 0) each(this.#take(), complete);
  }

  #take(): SseMessage {
    const raw = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
    this.#parts = [];
    return parseMessage(raw);
  }
}

/** Reads the `event` and `data` fields of one event's bytes. */
export function parseMessage(raw: Buffer): SseMessage {
  let event: string | null = null;
  let data: string | null = null;
  for (const line of raw.toString("utf8").split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(":");
    if (colon === 0 || line === "") continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data = data === null ? value : `${data}\n${value}`;
  }
  return { raw, event, data };
}

/** One event written anew: its `event:` name when it has one, its JSON `data`. */
export function writeMessage(event: string | null, data: unknown): string {
  const head = event === null ? "" : `event: ${event}\n`;
  return `${head}data: ${JSON.stringify(data)}\n\n`;
}
