/**
 * Reading a saved run folder for the reporters: `report.json`, parsed and validated by the strict
 * report reader into the typed report model (docs/reports.md), and `events.jsonl`, read loosely a
 * line at a time. Opens nothing else and never writes; reads regular files only (a FIFO or device
 * is refused, never waited on), `report.json` up to the report size limit. Large integers (a
 * probability seed) stay exact.
 */
import { realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { EVENT_LINE_MAX_BYTES } from "../events/line-stream.js";
import { ReportError } from "../report/errors.js";
import { REPORT_LIMITS } from "../report/limits.js";
import { reportOfBytes } from "../report/reader.js";
import type { Report } from "../report/types.js";
import { AgentChaosError } from "../support/errors.js";
import { readLines } from "../support/line-reader.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";

export class SavedRunError extends AgentChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("SAVED_RUN_UNREADABLE", message, options);
  }
}

export type JsonObject = Readonly<Record<string, unknown>>;

/** The error of a saved run's file `name` that cannot be read; a file not found is `missing`. */
function unreadable(name: string, error: unknown, missing: string): SavedRunError {
  if (!(error instanceof FileReadError)) throw error;
  return new SavedRunError(error.code === "FILE_NOT_FOUND" ? missing : `${name} ${error.reason}`, {
    cause: error,
  });
}

/** Whether a path is a folder (false when it does not exist). */
export function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

export interface SavedReport {
  readonly report: Report;
  /** The absolute, resolved path of the file read. */
  readonly path: string;
  /** The file's bytes, as read. */
  readonly bytes: Buffer;
}

/**
 * The typed report of `bytes`. A file that is not a JSON object of a supported schema is a
 * `SavedRunError`; one that breaks a rule of the strict reading is the reader's
 * `REPORT_SCHEMA_INVALID` `ReportError`, naming the offending key.
 */
function reportOf(bytes: Buffer): Report {
  try {
    return reportOfBytes(bytes);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    if (error.code === "REPORT_MALFORMED_JSON") {
      throw new SavedRunError("report.json is malformed JSON", { cause: error });
    }
    if (error.code === "REPORT_SCHEMA_UNSUPPORTED") {
      throw new SavedRunError("report.json schema version is unsupported", { cause: error });
    }
    if (error.code === "REPORT_SCHEMA_INVALID" && error.keyPath === null) {
      throw new SavedRunError("report.json is not a JSON object", { cause: error });
    }
    throw error;
  }
}

/** The run folder's `report.json`, read strictly into the typed report model. */
export async function readSavedReport(folder: string): Promise<SavedReport> {
  const file = resolve(join(folder, "report.json"));
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, REPORT_LIMITS.maxBytes);
  } catch (error) {
    throw unreadable("report.json", error, "report.json not found");
  }
  const report = reportOf(bytes);
  const path = await realpath(file).catch(() => file);
  return { report, path, bytes };
}

/** A line as an event: a JSON object, or null (a torn or foreign line, skipped). */
function eventOf(bytes: Buffer): JsonObject | null {
  if (bytes.length === 0) return null;
  try {
    const event = JSON.parse(bytes.toString("utf8")) as unknown;
    return typeof event === "object" && event !== null && !Array.isArray(event)
      ? (event as JsonObject)
      : null;
  } catch {
    return null;
  }
}

/**
 * Hands the run folder's events to `take` one at a time, in file order: one object per line that
 * parses (a crash may leave a last partial line, which is skipped). `take` returning false
 * stops the reading. A missing file has no events. A line longer than `EVENT_LINE_MAX_BYTES` is
 * a `SavedRunError` naming it.
 */
export async function forEachSavedEvent(folder: string, take: (event: JsonObject) => boolean): Promise<void> {
  try {
    const read = await readLines(join(folder, "events.jsonl"), EVENT_LINE_MAX_BYTES, (bytes) => {
      const event = eventOf(bytes);
      return event === null || take(event);
    });
    const last = read.stopped ? null : eventOf(read.tail);
    if (last !== null) take(last);
  } catch (error) {
    if (error instanceof FileReadError && error.code === "FILE_NOT_FOUND") return;
    throw unreadable("events.jsonl", error, "events.jsonl not found");
  }
}

/** The run folder's events, all at once (see `forEachSavedEvent`). */
export async function readSavedEvents(folder: string): Promise<JsonObject[]> {
  const events: JsonObject[] = [];
  await forEachSavedEvent(folder, (event) => events.push(event) > 0);
  return events;
}
