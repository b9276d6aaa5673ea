import { AgentChaosError } from "../support/errors.js";

export type ReportErrorCode =
  | "REPORT_NOT_FOUND"
  | "REPORT_UNREADABLE"
  | "REPORT_MALFORMED_JSON"
  | "REPORT_SCHEMA_UNSUPPORTED"
  | "REPORT_SCHEMA_INVALID";

/** The user-facing texts of docs/reports.md, printed after `Cannot inspect report: `. */
export const REPORT_ERROR_MESSAGES: Readonly<Record<ReportErrorCode, string>> = {
  REPORT_NOT_FOUND: "Report not found.",
  REPORT_UNREADABLE: "Report is unreadable.",
  REPORT_MALFORMED_JSON: "Report is malformed JSON.",
  REPORT_SCHEMA_UNSUPPORTED: "Report schema version is unsupported.",
  REPORT_SCHEMA_INVALID: "Report schema is invalid.",
};

/**
 * A saved report could not be read. The message is the fixed text of docs/reports.md; for
 * `REPORT_SCHEMA_INVALID` it may be followed by the offending key path (`fault.trigger.seed`),
 * which names only keys of the report schema, never values, and for `REPORT_UNREADABLE` by a
 * fixed reason (not a regular file, over the size limit).
 */
export class ReportError extends AgentChaosError {
  declare readonly code: ReportErrorCode;
  /** The offending key path for `REPORT_SCHEMA_INVALID`, null when the whole document is at fault. */
  readonly keyPath: string | null;

  constructor(
    code: ReportErrorCode,
    options: { keyPath?: string | null; reason?: string; cause?: unknown } = {},
  ) {
    const keyPath = options.keyPath ?? null;
    const base = REPORT_ERROR_MESSAGES[code];
    const detailed = options.reason === undefined ? base : `${base} ${options.reason}`;
    const message = keyPath === null || keyPath === "" ? detailed : `${base} Offending key: ${keyPath}`;
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.keyPath = keyPath === "" ? null : keyPath;
  }
}

/** Shorthand for a schema violation at a key path. */
export function invalidAt(keyPath: string | null): ReportError {
  return new ReportError("REPORT_SCHEMA_INVALID", { keyPath });
}
