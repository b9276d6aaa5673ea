import type { ScenarioProblem } from "../scenario/errors.js";
import { AgentChaosError } from "../support/errors.js";

export type ExploreErrorCode =
  /** A schema-1 scenario that schema 2 cannot express. */
  | "EXPLORE_NOT_CONVERTIBLE"
  /** The scenario uses something this build cannot run. */
  | "EXPLORE_UNSUPPORTED"
  /** The menu file cannot be read, is not YAML, or has problems (listed with positions). */
  | "MENU_NOT_FOUND"
  | "MENU_UNREADABLE"
  | "MENU_INVALID"
  /** An option out of range (budget 0, depth 3, ...). */
  | "EXPLORE_BAD_OPTION"
  /** The explore folder cannot be created. */
  | "EXPLORE_OUTPUT_FAILED";

/** Why an explore cannot start; `message` is one line, safe to print. */
export class ExploreError extends AgentChaosError {
  declare readonly code: ExploreErrorCode;
  /** For `MENU_INVALID`: every problem, positioned in the menu file. */
  readonly problems: readonly ScenarioProblem[];

  constructor(
    code: ExploreErrorCode,
    message: string,
    options: { readonly problems?: readonly ScenarioProblem[]; readonly cause?: unknown } = {},
  ) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.problems = options.problems ?? [];
  }

  /** Exit code: 3 when the output folder cannot be made, else 2 (bad input). */
  get exitCode(): number {
    return this.code === "EXPLORE_OUTPUT_FAILED" ? 3 : 2;
  }
}
