/**
 * The result summary of docs/reports.md, printed by `run` at the end and by `inspect`: one renderer,
 * so live and saved output cannot drift. For reports 1–3 it never prints ids, evidence rows,
 * diagnostics, seeds, payloads, the scenario or logs; report 4 adds lines per dependency, fault
 * and check, and the diagnostics of a failed run (summary-v4.ts).
 */
import { resolve } from "node:path";
import { terminalSafe } from "../support/terminal-text.js";
import type { LogExcerpt } from "./failure-excerpts.js";
import { type Field, fields, metricFields, renderSummaryBodyV4, successfulRecoveries } from "./summary-v4.js";
import { isReportV4, type Report, type ReportV1, type ReportV2, type ReportV3 } from "./types.js";

/** `Window evaluations:` (probability windows only) and `Faults injected:` lines. */
function faultFields(report: ReportV1 | ReportV2 | ReportV3): Field[] {
  if (report.schema_version === 1) return [["Faults injected:", String(report.faults_injected)]];
  if (report.schema_version === 2) {
    return [["Faults injected:", `${report.faults_injected}/${report.fault.scheduled_occurrences.length}`]];
  }
  const trigger = report.fault.trigger;
  if (trigger?.kind === "seeded_probability") {
    const windowSize = trigger.window.end_occurrence - trigger.window.start_occurrence + 1;
    return [
      ["Window evaluations:", `${trigger.evaluated_occurrences}/${windowSize}`],
      ["Faults injected:", String(report.faults_injected)],
    ];
  }
  const scheduled = trigger === null ? 0 : trigger.scheduled_occurrences.length;
  return [["Faults injected:", `${report.faults_injected}/${scheduled}`]];
}

/** The result, reason and metric lines of a report's summary (between heading and path). */
export function renderSummaryBody(report: Report): string {
  if (isReportV4(report)) return renderSummaryBodyV4(report);
  const recovery: Field =
    report.schema_version === 1
      ? ["Successful recovery:", report.recovery.observed ? "yes" : "no"]
      : successfulRecoveries(report.recovery);
  return [
    `Result: ${report.result}\n`,
    `Reason: ${terminalSafe(report.reason_code)}\n\n`,
    fields(metricFields(report, faultFields(report), recovery)),
  ].join("");
}

/** The heading of a report recovered from an incomplete run (`inspect --recover`). */
export const RECOVERED_HEADING = "Experiment incomplete: verdict recovered from its events.";

/**
 * The log lines quoted under the diagnostics of a failed schema-4 run (already masked and escaped
 * by `failureExcerpts`), so a red run says why it failed.
 */
function excerptSections(report: Report, excerpts: readonly LogExcerpt[]): string {
  if (!isReportV4(report) || report.result !== "FAILED") return "";
  return excerpts
    .map((excerpt) => `\n${excerpt.title}:\n${excerpt.lines.map((line) => `  ${line}\n`).join("")}`)
    .join("");
}

/**
 * The summary text, byte for byte; `reportPath` is printed absolute and resolved. A report
 * recovered from an incomplete run (it names `report.recovered.json` as its own file) says so
 * in its heading. `excerpts` (masked lines of the run's logs) are shown for a failed schema-4
 * run only.
 */
export function renderSummary(
  report: Report,
  reportPath: string,
  excerpts: readonly LogExcerpt[] = [],
): string {
  const heading =
    report.artifacts.report === "report.recovered.json" ? RECOVERED_HEADING : "Experiment complete.";
  const body = renderSummaryBody(report) + excerptSections(report, excerpts);
  return `\n${heading}\n\n${body}\nReport:\n${terminalSafe(resolve(reportPath))}\n`;
}
