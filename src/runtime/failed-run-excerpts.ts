import type { LogExcerpt } from "../report/failure-excerpts.js";
import { isReportV4, type Report } from "../report/types.js";

/**
 * The log lines a failed schema-2 run quotes (masked), else none: what `run` prints under its
 * summary and `inspect` prints again. Their module (with the YAML walker of the secret masks) is
 * loaded only for a report that needs it.
 */
export async function failedRunExcerpts(report: Report, runDir: string): Promise<LogExcerpt[]> {
  if (!isReportV4(report) || report.result !== "FAILED") return [];
  const { failureExcerpts } = await import("../report/failure-excerpts.js");
  return failureExcerpts(runDir, {
    result: report.result,
    reasonCode: report.reason_code,
    diagnostics: report.diagnostics,
    dependencies: report.dependencies.map((dependency) => dependency.name),
  });
}
