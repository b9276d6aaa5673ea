import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { EventsError } from "./events-error.js";
import { parseEventLine } from "./reader.js";
import type { AgentChaosEvent } from "./types.js";

const CHUNK_BYTES = 1024 * 1024;
/** No valid event line comes near this: its longest field, a request path, is bounded by HTTP. */
const MAX_LINE_BYTES = 1024 * 1024;

export interface EventsPrefix<E = AgentChaosEvent> {
  /** The valid events from the start of the file, up to the first line that is not one. */
  readonly events: E[];
  /** The 1-based number of the first line left out (invalid, or cut off), null when none was. */
  readonly stoppedAtLine: number | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The line as an event, or null when it is not a valid one (bad UTF-8, JSON or shape). */
function eventOf<E>(bytes: Uint8Array, line: number, parse: (text: string, line: number) => E): E | null {
  try {
    return parse(utf8.decode(bytes), line);
  } catch {
    return null;
  }
}

/**
 * Reads the longest valid prefix of an events.jsonl file: what a killed or failed run leaves is
 * a sequence of complete lines, possibly followed by one cut off mid-write. Reading stops at the
 * first line that is not a valid, terminated event. The file must be a regular file (opened
 * without blocking); it is read in chunks, so other work (a signal) is served in between.
 * `parse` reads one line of the file's events schema (schema 1 by default).
 */
export async function readEventsPrefix(path: string): Promise<EventsPrefix>;
export async function readEventsPrefix<E>(
  path: string,
  parse: (text: string, line: number) => E,
): Promise<EventsPrefix<E>>;
export async function readEventsPrefix<E>(
  path: string,
  parse: (text: string, line: number) => E = parseEventLine as unknown as (text: string, line: number) => E,
): Promise<EventsPrefix<E>> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new EventsError("EVENTS_NOT_FOUND", "Events file not found.", { cause });
    }
    throw new EventsError("EVENTS_UNREADABLE", "Events file is unreadable.", { cause });
  }
  try {
    if (!(await handle.stat()).isFile()) {
      throw new EventsError("EVENTS_UNREADABLE", "Events file is not a regular file.");
    }
    const events: E[] = [];
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let pending: Buffer = Buffer.alloc(0);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data =
        pending.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        const line = events.length + 1;
        const event = eventOf(data.subarray(start, end), line, parse);
        if (event === null) return { events, stoppedAtLine: line };
        events.push(event);
        start = end + 1;
      }
      pending = Buffer.from(data.subarray(start));
      if (pending.length > MAX_LINE_BYTES) return { events, stoppedAtLine: events.length + 1 };
    }
    return { events, stoppedAtLine: pending.length > 0 ? events.length + 1 : null };
  } catch (error) {
    if (error instanceof EventsError) throw error;
    throw new EventsError("EVENTS_UNREADABLE", "Events file is unreadable.", { cause: error });
  } finally {
    await handle.close();
  }
}
