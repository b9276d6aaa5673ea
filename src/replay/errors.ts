import { AgentChaosError } from "../support/errors.js";

export type CassetteErrorCode = "CASSETTE_MISSING" | "CASSETTE_INVALID" | "CASSETTE_EXISTS";

/**
 * A cassette that cannot be used. The message names the file as the caller shows it and, for a
 * broken line, its 1-based number; it never quotes the file's content.
 */
export class CassetteError extends AgentChaosError {
  declare readonly code: CassetteErrorCode;
  /** The 1-based line at fault, or null (a missing file, an unreadable one). */
  readonly line: number | null;

  constructor(code: CassetteErrorCode, message: string, line: number | null = null, cause?: unknown) {
    super(code, message, cause === undefined ? undefined : { cause });
    this.line = line;
  }
}
