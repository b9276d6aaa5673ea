/**
 * What a failed schema-2 run quotes from its logs (see docs/reports.md), so that the terminal
 * summary and the HTML page say why it failed instead of pointing at files:
 *
 * - a dependency that could not start (`DEPENDENCY_START_FAILED`): the first lines of its
 *   `dependencies/<name>.stderr.log` (or of its stdout log when stderr is empty), where a
 *   program that fails at start writes its error;
 * - any other failed run: the last lines of the workload's `stderr.log`.
 *
 * Lines are bounded, masked and escaped by `log-tail.ts`.
 */
import { logLines, secretValues } from "./log-tail.js";

export interface LogExcerpt {
  /** `Workload stderr (last 3 lines of stderr.log)` */
  readonly title: string;
  /** The log file, relative to the run folder. */
  readonly file: string;
  readonly lines: readonly string[];
}

/** What the excerpts are chosen from: a report 4's result, reason, diagnostics and dependency names. */
export interface FailedRunFacts {
  readonly result: string;
  readonly reasonCode: string;
  readonly diagnostics: readonly string[];
  readonly dependencies: readonly string[];
}

const DEPENDENCY_SENTENCE = /^dependency ([a-z][a-z0-9_]{0,31})\b/;

function count(lines: readonly string[], where: "first" | "last"): string {
  return lines.length === 1 ? `${where} line` : `${where} ${lines.length} lines`;
}

/** The dependency a DEPENDENCY_START_FAILED diagnostic names, when it names one of the run's. */
function failedDependency(facts: FailedRunFacts): string | null {
  for (const line of facts.diagnostics) {
    const name = DEPENDENCY_SENTENCE.exec(line)?.[1];
    if (name !== undefined && facts.dependencies.includes(name)) return name;
  }
  return null;
}

/** The excerpts of a failed run (none for a run that passed or recovered, or whose logs are empty). */
export async function failureExcerpts(folder: string, facts: FailedRunFacts): Promise<LogExcerpt[]> {
  if (facts.result !== "FAILED") return [];
  const secrets = await secretValues(folder);
  const excerpts: LogExcerpt[] = [];
  const dependency = facts.reasonCode === "DEPENDENCY_START_FAILED" ? failedDependency(facts) : null;
  if (dependency !== null) {
    for (const stream of ["stderr", "stdout"] as const) {
      const file = `dependencies/${dependency}.${stream}.log`;
      const lines = await logLines("start", folder, file, secrets);
      if (lines.length === 0) continue;
      excerpts.push({
        title: `Dependency ${dependency} ${stream} (${count(lines, "first")} of ${file})`,
        file,
        lines,
      });
      break;
    }
  }
  const workload = await logLines("end", folder, "stderr.log", secrets);
  if (workload.length > 0) {
    excerpts.push({
      title: `Workload stderr (${count(workload, "last")} of stderr.log)`,
      file: "stderr.log",
      lines: workload,
    });
  }
  return excerpts;
}
