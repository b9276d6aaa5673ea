import { SseEventCounter } from "../../support/sse-events.js";

/** Where a mid-stream fault cuts: exactly one of the two is non-null (docs/faults.md). */
export interface CutSpec {
  readonly afterEvents: number | null;
  readonly afterBytes: number | null;
}

/**
 * Finds the cut point in a response body as it arrives: after `afterEvents` complete SSE
 * events (right after the line end that completes the last one's empty line), or after
 * `afterBytes` body bytes (as received: de-chunked, not decoded). Feed the body in order.
 */
export interface CutPoint {
  /** The cut point lies right after the headers (`0`). */
  readonly atStart: boolean;
  /** The offset in `chunk` at which the cut point lies (`chunk.length` = right after it), or -1. */
  find(chunk: Buffer): number;
  /** The body ended: whether its very end is the cut point (an event completed by a final CR). */
  reachedAtEnd(): boolean;
}

export function cutPoint(spec: CutSpec): CutPoint {
  if (spec.afterEvents !== null) return afterEvents(spec.afterEvents);
  return afterBytes(spec.afterBytes ?? 0);
}

function afterEvents(events: number): CutPoint {
  const counter = new SseEventCounter();
  return {
    atStart: events === 0,
    find: (chunk) => counter.scan(chunk, events),
    reachedAtEnd: () => counter.end() === events,
  };
}

function afterBytes(bytes: number): CutPoint {
  let remaining = bytes;
  return {
    atStart: bytes === 0,
    find(chunk) {
      if (chunk.length >= remaining) return remaining;
      remaining -= chunk.length;
      return -1;
    },
    reachedAtEnd: () => false,
  };
}
