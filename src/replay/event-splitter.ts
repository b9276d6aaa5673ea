/**
 * Splits a `text/event-stream` body, arriving in chunks cut anywhere, into its events' raw
 * texts, each with the time it completed (docs/replay.md: `events` and their offsets). The
 * event boundaries are the SSE format's (support/sse-events.ts); bytes after the last complete
 * event become one last event when the body ends.
 */
import { SseEventCounter } from "../support/sse-events.js";
import type { RecordedEvent } from "./format.js";

export class EventSplitter {
  readonly #counter = new SseEventCounter();
  readonly #startedAt: number;
  #pending: Buffer[] = [];
  readonly events: RecordedEvent[] = [];

  /** `startedAt`: the response head's time, in the clock `push` and `end` are given. */
  constructor(startedAt: number) {
    this.#startedAt = startedAt;
  }

  push(chunk: Buffer, now: number): void {
    let rest = chunk;
    for (;;) {
      const at = this.#counter.scan(rest, this.#counter.count + 1);
      if (at < 0) {
        if (rest.length > 0) this.#pending.push(rest);
        return;
      }
      this.#pending.push(rest.subarray(0, at));
      this.#complete(now);
      rest = rest.subarray(at);
    }
  }

  /** The body ended: what is left is the last event. */
  end(now: number): readonly RecordedEvent[] {
    this.#counter.end();
    if (this.#pending.some((part) => part.length > 0)) this.#complete(now);
    return this.events;
  }

  #complete(now: number): void {
    const text = Buffer.concat(this.#pending).toString("utf8");
    this.#pending = [];
    this.events.push({ offset_ms: Math.max(0, Math.round(now - this.#startedAt)), text });
  }
}
