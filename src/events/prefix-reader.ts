import { readLines } from "../support/line-reader.js";
import { FileReadError } from "../support/regular-file.js";
import { decodeLine, EVENT_LINE_MAX_BYTES, fileError } from "./line-stream.js";

export interface PrefixRead {
  /** Valid events read from the start of the file. */
  readonly count: number;
  /** The 1-based number of the first line left out (invalid, cut off or too long), null when none was. */
  readonly stoppedAtLine: number | null;
}

export interface EventsPrefix<E> extends PrefixRead {
  /** The valid events from the start of the file, up to the first line that is not one. */
  readonly events: E[];
}

/**
 * Streams the longest valid prefix of an events.jsonl file to `take`, one event at a time: what
 * a killed or failed run leaves is a sequence of complete lines, possibly followed by one cut
 * off mid-write. Reading stops at the first line that is not a valid, terminated event (bad
 * UTF-8, JSON or shape, or longer than `EVENT_LINE_MAX_BYTES`), or when `take` returns false.
 * The file is read through the regular-file reader (a FIFO is refused, never waited on), one
 * chunk at a time. Throws `EventsError` (`EVENTS_NOT_FOUND`, `EVENTS_UNREADABLE`).
 */
export async function streamEventsPrefix<E>(
  path: string,
  parse: (text: string, line: number) => E,
  take: (event: E) => boolean,
): Promise<PrefixRead> {
  let count = 0;
  let stoppedAtLine: number | null = null;
  const onLine = (bytes: Buffer, line: number): boolean => {
    let event: E;
    try {
      event = parse(decodeLine(bytes, line), line);
    } catch {
      // Not a valid event (EventsError), or one the parser cannot even take: the prefix ends.
      stoppedAtLine = line;
      return false;
    }
    count += 1;
    return take(event);
  };
  try {
    const read = await readLines(path, EVENT_LINE_MAX_BYTES, onLine);
    if (!read.stopped && read.tail.length > 0) stoppedAtLine = read.lines + 1;
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.code !== "FILE_LINE_TOO_LONG") throw fileError(error);
    stoppedAtLine = error.line;
  }
  return { count, stoppedAtLine };
}

/** `streamEventsPrefix` with the events in an array. */
export async function readEventsPrefix<E>(
  path: string,
  parse: (text: string, line: number) => E,
): Promise<EventsPrefix<E>> {
  const events: E[] = [];
  const read = await streamEventsPrefix(path, parse, (event) => events.push(event) > 0);
  return { ...read, events };
}
