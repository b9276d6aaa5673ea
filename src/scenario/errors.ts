import { AgentChaosError } from "../support/errors.js";
import { terminalSafe } from "../support/terminal-text.js";

export type ScenarioErrorCode =
  | "SCENARIO_NOT_FOUND"
  | "SCENARIO_UNREADABLE"
  | "SCENARIO_NOT_UTF8"
  | "SCENARIO_EMPTY"
  | "SCENARIO_YAML_SYNTAX"
  | "SCENARIO_NOT_MAPPING"
  | "SCENARIO_MULTIPLE_DOCUMENTS"
  | "SCENARIO_TOO_LARGE"
  | "SCENARIO_INVALID"
  /** Valid, but uses something this version cannot run yet. */
  | "SCENARIO_UNSUPPORTED";

/** One validation problem, pointing into the file. `line` and `column` are 1-based. */
export interface ScenarioProblem {
  /** Key path in the notation of docs/scenario.md: `fault.trigger.occurrences[1]`. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** What was expected (and, where safe, what was found). */
  readonly message: string;
  /** The source line and, below it, a caret under the column (two lines, no trailing newline). */
  readonly excerpt: string;
}

/**
 * Why a file of rules (a scenario, a fake-llm script) could not be used: a one-line `detail`,
 * or, for its invalid code, the `problems` it lists instead.
 */
export class ProblemsError<Code extends string> extends AgentChaosError {
  declare readonly code: Code;
  readonly detail: string;
  readonly problems: readonly ScenarioProblem[];

  constructor(
    code: Code,
    detail: string,
    options: { problems?: readonly ScenarioProblem[]; cause?: unknown } = {},
  ) {
    super(code, `${code}: ${detail}`, options.cause === undefined ? {} : { cause: options.cause });
    this.detail = detail;
    this.problems = options.problems ?? [];
  }
}

/**
 * Why a scenario could not be loaded. `detail` is the one-line reason for every code except
 * `SCENARIO_INVALID`, which lists its `problems` instead. Neither ever holds a value of the
 * file that could be a secret (environment values, URL user information).
 */
export class ScenarioError extends ProblemsError<ScenarioErrorCode> {}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${terminalSafe(line)}`)
    .join("\n");
}

/**
 * The text printed after `Invalid scenario: ` (no trailing newline). `displayPath` is the path
 * as the user gave it. One line for every reason but `SCENARIO_INVALID`, which lists every
 * problem with its key path, line, column and a caret excerpt. Control characters from the file
 * or the path are escaped (terminal-text.ts).
 */
export function formatScenarioError(error: ScenarioError, rawDisplayPath: string): string {
  const displayPath = terminalSafe(rawDisplayPath);
  if (error.code === "SCENARIO_NOT_FOUND") return `file not found: ${displayPath}`;
  if (error.code !== "SCENARIO_INVALID") return `${displayPath}: ${terminalSafe(error.detail)}`;
  const count = error.problems.length;
  const lines = [`${displayPath}: ${count} ${count === 1 ? "problem" : "problems"}`];
  for (const problem of error.problems) {
    const where = `${problem.path} (line ${problem.line}, column ${problem.column})`;
    lines.push(`  ${terminalSafe(where)}: ${terminalSafe(problem.message)}`);
    if (problem.excerpt !== "") lines.push(indent(problem.excerpt, "      "));
  }
  return lines.join("\n");
}
