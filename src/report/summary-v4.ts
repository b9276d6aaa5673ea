/**
 * The summary of a schema-4 report: the schema-2 lines plus one line per dependency, per fault
 * and per check, and the diagnostics of a failed run. Rendered by `renderSummary`, which lays out
 * the lines of reports 1–3 with the same column and closing lines.
 */
import { describeExitCode } from "../events/exit-status.js";
import { printableLabel as printable } from "../events/operation-label.js";
import type { ReportHead, ReportWorkload } from "./types.js";
import type { ReportCheckV4, ReportDependencyV4, ReportFaultV4, ReportV4 } from "./types-v4.js";
import { lastingTriggerSummary } from "./v4/lasting-trigger.js";
import { truthFields } from "./v4/truth-summary.js";

/** The value column of every summary; longer dependency, fault or check labels widen it. */
const LABEL_WIDTH = 23;

export type Field = readonly [label: string, value: string];

/** The fields as lines, every value in one column (at least one space after the longest label). */
export function fields(list: readonly Field[]): string {
  const width = Math.max(LABEL_WIDTH, ...list.map(([label]) => label.length + 1));
  return list.map(([label, value]) => `${label.padEnd(width)}${value}\n`).join("");
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function dependencyField(dependency: ReportDependencyV4): Field {
  const operations = plural(dependency.operations_observed, "operation");
  return [
    `Dependency ${dependency.name}:`,
    `${dependency.protocol}, ${operations}, ${dependency.failed_operations} failed`,
  ];
}

function faultField(fault: ReportFaultV4): Field {
  const { trigger } = fault;
  const injected =
    trigger.kind === "occurrence_schedule"
      ? `injected ${fault.injected}/${trigger.scheduled_occurrences.length}`
      : trigger.kind === "seeded_probability"
        ? `injected ${fault.injected}, window ${trigger.evaluated_occurrences}/${
            trigger.window.end_occurrence - trigger.window.start_occurrence + 1
          }`
        : `injected ${fault.injected}, ${lastingTriggerSummary(trigger)}`;
  const notApplied = fault.not_applied > 0 ? `, not applied ${fault.not_applied}` : "";
  const expect = fault.expect === "recover" ? "" : `, expect ${fault.expect}`;
  return [`Fault ${fault.id}:`, `${fault.type} on ${fault.dependency}, ${injected}${notApplied}${expect}`];
}

/** What a check that was never evaluated says (terminal, HTML). */
export const NOT_EVALUATED = "not evaluated (the workload never ran)";

function checkField(check: ReportCheckV4): Field {
  if (check.passed === null) return [`Check ${check.name}:`, NOT_EVALUATED];
  const outcome = check.passed ? "passed" : plural(check.findings.length, "finding");
  return [`Check ${check.name}:`, `${outcome}${check.mode === "report" ? " (report only)" : ""}`];
}

/**
 * How the workload ended: `exit code 0`, `exit code 1 (expected 0)`, `killed by SIGTERM (timeout)`,
 * `killed by SIGTERM (interrupted)`, or `not started` when it never ran (a setup failure).
 */
export function workloadExit(workload: ReportWorkload): string {
  const { exit_code: code, expected_exit_code: expected } = workload;
  const why = workload.timed_out ? " (timeout)" : workload.interrupted ? " (interrupted)" : "";
  if (code === null) return why === "" ? "not started" : `no exit code${why}`;
  const mismatch = why === "" && code !== expected ? ` (expected ${expected})` : "";
  return `${describeExitCode(code)}${why}${mismatch}`;
}

/** `n/m` (injected over scheduled) when every fault has an occurrence schedule, else `n`. */
function faultsInjected(report: ReportV4): string {
  let scheduled = 0;
  for (const { trigger } of report.faults) {
    if (trigger.kind !== "occurrence_schedule") return String(report.faults_injected);
    scheduled += trigger.scheduled_occurrences.length;
  }
  return `${report.faults_injected}/${scheduled}`;
}

/** `Successful recoveries:` of reports 2 to 5: resolved over required rows. */
export function successfulRecoveries(recovery: {
  readonly required: number;
  readonly successful: number;
}): Field {
  return ["Successful recoveries:", `${recovery.successful}/${recovery.required}`];
}

/** The closing lines of every summary: the injection lines, failures, retries, `recovery`, duration. */
export function metricFields(report: ReportHead, injected: readonly Field[], recovery: Field): Field[] {
  return [
    ...injected,
    ["Failed operations:", String(report.failed_operations)],
    ["Retries:", String(report.retries_observed)],
    recovery,
    ["Duration:", `${(report.duration_ms / 1000).toFixed(2)}s`],
  ];
}

function diagnostics(report: ReportV4): string {
  if (report.result !== "FAILED" || report.diagnostics.length === 0) return "";
  return `\nDiagnostics:\n${report.diagnostics.map((line) => `  ${printable(line)}\n`).join("")}`;
}

/** The result, reason, field and diagnostics lines of a report 4's summary (between heading and path). */
export function renderSummaryBodyV4(report: ReportV4): string {
  return [
    `Result: ${report.result}\n`,
    `Reason: ${printable(report.reason_code)}\n\n`,
    fields([
      ["Workload exit:", workloadExit(report.workload)],
      ...report.dependencies.map(dependencyField),
      ...report.faults.map(faultField),
      ...report.checks.map(checkField),
      ...truthFields(report),
      ...metricFields(
        report,
        [["Faults injected:", faultsInjected(report)]],
        successfulRecoveries(report.recovery),
      ),
    ]),
    diagnostics(report),
  ].join("");
}
