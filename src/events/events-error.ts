import { AgentChaosError } from "../support/errors.js";

export type EventsErrorCode =
  | "EVENTS_NOT_FOUND"
  | "EVENTS_UNREADABLE"
  | "EVENTS_INVALID"
  | "EVENTS_TRUNCATED";

/**
 * Reading events.jsonl failed. The message names the line number and the offending key path,
 * never a value from the file.
 */
export class EventsError extends AgentChaosError {
  declare readonly code: EventsErrorCode;
  /** 1-based line number, or null when the whole file is concerned. */
  readonly line: number | null;
  /** Offending key path (`payload.status_code`), `""` for the line itself, null when not applicable. */
  readonly keyPath: string | null;

  constructor(
    code: EventsErrorCode,
    message: string,
    details: { line?: number; keyPath?: string; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.line = details.line ?? null;
    this.keyPath = details.keyPath ?? null;
  }

  /** An `EVENTS_INVALID` error for one key of one line (`""`: the line itself). */
  static invalid(line: number, keyPath: string, problem: string, cause?: unknown): EventsError {
    const where = keyPath === "" ? "the line" : keyPath;
    const message = `Invalid event on line ${line}: ${where} ${problem}.`;
    return new EventsError("EVENTS_INVALID", message, { line, keyPath, cause });
  }
}
