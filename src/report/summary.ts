/**
 * The result summary of docs/reports.md, printed by `run` at the end and by `inspect`: one renderer,
 * so live and saved output cannot drift. For reports 1–3 it never prints ids, evidence rows,
 * diagnostics, seeds, payloads, the scenario or logs; report 4 adds lines per dependency, fault
 * and check, and the diagnostics of a failed run (summary-v4.ts).
 */
import { resolve } from "node:path";
import { terminalSafe } from "../support/terminal-text.js";
import type { LogExcerpt } from "./failure-excerpts.js";
import { renderSummaryBodyV4, renderSummaryV4 } from "./summary-v4.js";
import { isReportV4, type Report, type ReportV1, type ReportV2, type ReportV3 } from "./types.js";

const LABEL_WIDTH = 23;

function line(label: string, value: string): string {
  return `${label.padEnd(LABEL_WIDTH)}${value}\n`;
}

/** `Window evaluations:` (probability windows only) and `Faults injected:` lines. */
function faultLines(report: ReportV1 | ReportV2 | ReportV3): string {
  if (report.schema_version === 1) return line("Faults injected:", String(report.faults_injected));
  if (report.schema_version === 2) {
    return line("Faults injected:", `${report.faults_injected}/${report.fault.scheduled_occurrences.length}`);
  }
  const trigger = report.fault.trigger;
  if (trigger?.kind === "seeded_probability") {
    const windowSize = trigger.window.end_occurrence - trigger.window.start_occurrence + 1;
    return (
      line("Window evaluations:", `${trigger.evaluated_occurrences}/${windowSize}`) +
      line("Faults injected:", String(report.faults_injected))
    );
  }
  const scheduled = trigger === null ? 0 : trigger.scheduled_occurrences.length;
  return line("Faults injected:", `${report.faults_injected}/${scheduled}`);
}

function recoveryLine(report: ReportV1 | ReportV2 | ReportV3): string {
  if (report.schema_version === 1)
    return line("Successful recovery:", report.recovery.observed ? "yes" : "no");
  return line("Successful recoveries:", `${report.recovery.successful}/${report.recovery.required}`);
}

/** The result, reason and metric lines of a report 1–3's summary (between heading and path). */
export function renderSummaryBody(report: Report): string {
  if (isReportV4(report)) return renderSummaryBodyV4(report);
  return [
    `Result: ${report.result}\n`,
    `Reason: ${terminalSafe(report.reason_code)}\n\n`,
    faultLines(report),
    line("Failed operations:", String(report.failed_operations)),
    line("Retries:", String(report.retries_observed)),
    recoveryLine(report),
    line("Duration:", `${(report.duration_ms / 1000).toFixed(2)}s`),
  ].join("");
}

/** The heading of a report recovered from an incomplete run (`inspect --recover`). */
export const RECOVERED_HEADING = "Experiment incomplete: verdict recovered from its events.";

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
  if (isReportV4(report)) return renderSummaryV4(report, reportPath, excerpts);
  const heading =
    report.artifacts.report === "report.recovered.json" ? RECOVERED_HEADING : "Experiment complete.";
  return `\n${heading}\n\n${renderSummaryBody(report)}\nReport:\n${terminalSafe(resolve(reportPath))}\n`;
}
