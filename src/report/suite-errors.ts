import { AgentChaosError } from "../support/errors.js";

export type SuiteErrorCode =
  | "SUITE_PATH_NOT_FOUND"
  | "SUITE_PATH_UNREADABLE"
  | "SUITE_NO_SCENARIOS"
  | "SUITE_NO_MATCH"
  | "SUITE_BAD_OPTION"
  | "SUITE_OUTPUT_FAILED"
  | "SUITE_NOT_FOUND"
  | "SUITE_UNREADABLE"
  | "SUITE_INVALID"
  | "MERGE_DUPLICATE_SCENARIO"
  | "MERGE_DUPLICATE_SHARD"
  | "MERGE_SHARD_MISMATCH"
  | "MERGE_TRIALS_MISMATCH";

/** Why a suite, a saved suite or a merge cannot go on; `message` is one line, safe to print. */
export class SuiteError extends AgentChaosError {
  declare readonly code: SuiteErrorCode;

  constructor(code: SuiteErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  /** Exit code: 3 for an output folder that cannot be created or written, else 2 (bad input). */
  get exitCode(): number {
    return this.code === "SUITE_OUTPUT_FAILED" ? 3 : 2;
  }
}
