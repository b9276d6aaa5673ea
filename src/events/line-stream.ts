/**
 * Reading events.jsonl line by line: the file is read through the one regular-file reader (a
 * FIFO, socket, device or folder is refused, nothing blocks), one chunk and one line at a time,
 * and every line is bounded by `EVENT_LINE_MAX_BYTES`.
 */
import { isUtf8 } from "node:buffer";
import { readLines } from "../support/line-reader.js";
import { FileReadError, sizeText } from "../support/regular-file.js";
import { EventsError } from "./events-error.js";

/**
 * The longest line of events.jsonl read (65 MiB). The longest field of an event is an
 * operation's `path`: bounded by HTTP's header limit for HTTP, and by the message for MCP over
 * stdio, whose JSON-RPC lines pass through up to 64 MiB; the envelope adds far less than 1 MiB.
 */
export const EVENT_LINE_MAX_BYTES = 65 * 1024 * 1024;

export interface ReadEventsOptions {
  /**
   * Drop a last line that has no final `\n` (what a crash mid-write leaves) instead of
   * failing with `EVENTS_TRUNCATED`. The dropped line is not parsed at all.
   */
  readonly allowTruncatedTail?: boolean;
}

/** The error of a last line without its final newline. */
export function truncatedTail(line: number): EventsError {
  const message = `Invalid event on line ${line}: the last line is not terminated.`;
  return new EventsError("EVENTS_TRUNCATED", message, { line, keyPath: "" });
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A line's bytes as text; `EVENTS_INVALID` when they are not valid UTF-8. */
export function decodeLine(bytes: Uint8Array, line: number): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  try {
    return utf8.decode(bytes);
  } catch (cause) {
    throw EventsError.invalid(line, "", "is not valid UTF-8", cause);
  }
}

/**
 * The `EventsError` of a file that cannot be read: `EVENTS_NOT_FOUND`, `EVENTS_UNREADABLE` (its
 * message says why: not a regular file, a read failure), or `EVENTS_INVALID` for a line over
 * the limit.
 */
export function fileError(cause: unknown): EventsError {
  if (cause instanceof EventsError) return cause;
  if (cause instanceof FileReadError) {
    if (cause.code === "FILE_NOT_FOUND")
      return new EventsError("EVENTS_NOT_FOUND", "Events file not found.", { cause });
    if (cause.code === "FILE_LINE_TOO_LONG") {
      const limit = sizeText(EVENT_LINE_MAX_BYTES);
      return EventsError.invalid(cause.line ?? 0, "", `is longer than the ${limit} limit`, cause);
    }
    return new EventsError("EVENTS_UNREADABLE", `Events file ${cause.reason}.`, { cause });
  }
  return new EventsError("EVENTS_UNREADABLE", "Events file is unreadable.", { cause });
}

/**
 * Reads an events file line by line, strictly (the rules and errors of `readLegacyEvents`), handing
 * each parsed event to `take` as soon as its line is read. `take` returning false stops the
 * reading early; the result says whether every line was read.
 */
export async function streamEventLines<E>(
  path: string,
  parseLine: (line: string, lineNumber: number) => E,
  take: (event: E) => boolean,
  options: ReadEventsOptions = {},
): Promise<"read" | "stopped"> {
  let read: Awaited<ReturnType<typeof readLines>>;
  try {
    read = await readLines(path, EVENT_LINE_MAX_BYTES, (bytes, lineNumber) =>
      take(parseLine(decodeLine(bytes, lineNumber), lineNumber)),
    );
  } catch (error) {
    throw error instanceof FileReadError ? fileError(error) : error;
  }
  if (read.stopped) return "stopped";
  if (read.tail.length > 0 && options.allowTruncatedTail !== true) throw truncatedTail(read.lines + 1);
  return "read";
}
