import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

/** One server-sent event: an optional `event:` name and its `data:` text (one line). */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/** A named event whose data is `value` as JSON (Anthropic and the Responses API name every event). */
export function namedEvent(event: string, value: unknown): SseEvent {
  return { event, data: JSON.stringify(value) };
}

/** An unnamed `data:` event (Chat Completions). */
export function dataEvent(value: unknown): SseEvent {
  return { data: typeof value === "string" ? value : JSON.stringify(value) };
}

/** The wire form of one event, ending in the blank line that closes it. */
export function formatEvent(event: SseEvent): string {
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/**
 * Sends `events` as a `text/event-stream` response, waiting `delayMs` between two events. Stops
 * quietly when the client goes away (or the server closes the connection) mid-stream.
 */
export async function writeEventStream(
  res: ServerResponse,
  events: readonly SseEvent[],
  delayMs: number,
): Promise<void> {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
  });
  res.flushHeaders();
  // A pause ends early when the connection closes, so a stopping server does not wait for it.
  const closed = new AbortController();
  res.once("close", () => closed.abort());
  for (const [index, event] of events.entries()) {
    if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal: closed.signal }).catch(() => {});
    if (res.destroyed) return;
    res.write(formatEvent(event));
  }
  res.end();
}
