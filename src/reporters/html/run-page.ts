/**
/**
 * `report.html`: one run's verdict, diagnostics, faults, evidence, checks, timeline, and links to
 * its logs (with the last stderr lines of a failed run, masked). The page stays a bounded size
 * whatever the run's length: the timeline draws buckets past a few hundred operations, and long
 * lists (evidence rows, diagnostics, operations) show their first rows and say how many more
 * report.json holds.
 */
import { failureExcerpts, type LogExcerpt } from "../../report/failure-excerpts.js";
import { NOT_EVALUATED } from "../../report/summary-v4.js";
import { isReportV4, type Report } from "../../report/types.js";
import { forEachSavedEvent, readSavedEvents, readSavedReport } from "../saved-run.js";
import { listedOperations, operationRef, operationsOf, operationsSection } from "./operations-table.js";
import { esc, factsList, formatMs, listItems, page, verdictRow } from "./page.js";
import { type RunEvents, RunEventsStream, runEventsOf } from "./run-events.js";
import { type RunModel, runModel } from "./run-model.js";
import { renderTimeline } from "./timeline.js";

/** Evidence rows shown at most. */
export const EVIDENCE_ROW_LIMIT = 500;
/** Diagnostics shown at most. */
export const DIAGNOSTIC_LIMIT = 200;

/** The note under a list cut at `shown` of `total` items (empty when nothing was left out). */
function leftOut(total: number, shown: number, what: string): string {
  const rest = total - shown;
  return rest <= 0
    ? ""
    : `<p class="note">${rest} more ${what} left out here (the first ${shown} are shown); report.json has them all.</p>`;
}

function table(
  headers: readonly string[],
  rows: readonly string[][],
  numeric: readonly number[] = [],
): string {
  const head = headers
    .map((header, index) => `<th${numeric.includes(index) ? ' class="num"' : ""}>${esc(header)}</th>`)
    .join("");
  const body = rows
    .map(
      (cells) =>
        `<tr>${cells.map((cell, index) => `<td${numeric.includes(index) ? ' class="num"' : ""}>${cell}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function faultsSection(model: RunModel): string {
  if (model.faults.length === 0)
    return '<section id="faults"><h2>Faults</h2><p class="muted">No fault configured (baseline run).</p></section>';
  const v4 = model.schemaVersion >= 4;
  const headers = [
    "Fault",
    "Dependency",
    "Type",
    "Expect",
    "Target",
    "Parameters",
    "Injected",
    "Not applied",
    "Trigger evidence",
    v4 ? "Recovered" : "Recovery",
  ];
  // Reports 1–3 have one fault without id, dependency, expectation or target.
  const shown = v4 ? headers.map((_, index) => index) : [2, 5, 6, 8, 9];
  const rows = model.faults.map((fault) => {
    const cells = [
      `<code>${esc(fault.id ?? "")}</code>`,
      esc(fault.dependency ?? "—"),
      `<code>${esc(fault.type)}</code>`,
      esc(fault.expect ?? "—"),
      `<span class="mono">${esc(fault.target ?? "—")}</span>`,
      `<span class="mono">${esc(fault.parameters)}</span>`,
      esc(fault.injected),
      esc(fault.notApplied ?? 0),
      esc(fault.trigger),
      esc(fault.recovery ?? "—"),
    ];
    return shown.map((index) => cells[index] as string);
  });
  const numeric = v4 ? [6, 7] : [2];
  return `<section id="faults"><h2>Faults</h2>${table(
    shown.map((index) => headers[index] as string),
    rows,
    numeric,
  )}</section>`;
}

function evidenceSection(model: RunModel): string {
  const mode =
    model.recoveryMode === null ? "" : ` <span class="muted">(mode: ${esc(model.recoveryMode)})</span>`;
  if (model.evidence.length === 0) {
    return `<section id="recovery"><h2>Recovery evidence${mode}</h2><p class="muted">No fault-related failure to recover from.</p></section>`;
  }
  const v4 = model.schemaVersion >= 4;
  const labels = new Map(operationsOf(model).map((operation) => [operation.id, operation.label]));
  const listed = new Set(listedOperations(model).listed.map((operation) => operation.id));
  const rows = model.evidence
    .slice(0, EVIDENCE_ROW_LIMIT)
    .map((row) => [
      ...(v4 ? [`<code>${esc(row.faultId ?? "")}</code>`] : []),
      operationRef(row.failed, labels, listed),
      operationRef(row.retry, labels, listed),
      row.latencyMs === null ? '<span class="muted">not recovered</span>' : esc(formatMs(row.latencyMs)),
    ]);
  const headers = [...(v4 ? ["Fault"] : []), "Failed operation", "Recovered by", "Recovery latency"];
  const note = leftOut(model.evidence.length, rows.length, "evidence rows are");
  return `<section id="recovery"><h2>Recovery evidence${mode}</h2>${table(headers, rows, [headers.length - 1])}${note}</section>`;
}

function checksSection(model: RunModel): string {
  if (model.checks.length === 0) return "";
  const rows = model.checks.map((check) => [
    `<code>${esc(check.name)}</code>`,
    esc(check.mode),
    check.passed === null
      ? `<span class="muted not-evaluated">${esc(NOT_EVALUATED)}</span>`
      : check.passed
        ? '<span class="badge PASSED">passed</span>'
        : '<span class="badge FAILED">findings</span>',
    check.passed === null ? '<span class="muted">—</span>' : esc(check.findings),
  ]);
  return `<section id="checks"><h2>Checks</h2>${table(["Check", "Mode", "Outcome", "Findings"], rows, [3])}</section>`;
}

function dependenciesSection(model: RunModel): string {
  if (model.dependencies.length === 0) return "";
  const rows = model.dependencies.map((dependency) => [
    `<b>${esc(dependency.name)}</b>`,
    `<span class="mono">${esc(dependency.detail)}</span>`,
    esc(dependency.observed),
    esc(dependency.failed),
  ]);
  return `<section id="dependencies"><h2>Dependencies</h2>${table(["Dependency", "Kind", "Operations", "Failed"], rows, [2, 3])}</section>`;
}

/** What the page shows of the run's logs: links to every log file, and the stderr tail of a failed run. */
export interface RunLogs {
  /** Paths relative to the run folder: the workload's logs, then each managed dependency's. */
  readonly files: readonly string[];
  /** What a failed run quotes from its logs, masked and escaped (none when it did not fail). */
  readonly excerpts: readonly LogExcerpt[];
}

function logsSection(logs: RunLogs | undefined): string {
  if (logs === undefined || logs.files.length === 0) return "";
  const links = logs.files
    .map((file) => `<li><a class="mono" href="${esc(file)}">${esc(file)}</a></li>`)
    .join("");
  const tail = logs.excerpts
    .map(
      (excerpt) =>
        `<p class="note">${esc(excerpt.title)}, secrets masked:</p><pre class="log" data-file="${esc(excerpt.file)}">${excerpt.lines.map((line) => esc(line)).join("\n")}</pre>`,
    )
    .join("");
  return `<section id="logs"><h2>Logs</h2>${tail}<ul class="logs">${links}</ul></section>`;
}

/** The only log paths a page links to or reads: a report cannot point it at any other file. */
const LOG_PATH =
  /^(?:std(?:out|err)\.log|dependency\.std(?:out|err)\.log|dependencies\/[a-z][a-z0-9_]{0,31}\.std(?:out|err)\.log)$/;

/** The log files a report names (relative to its run folder), in a stable order. */
function logFiles(report: Report): string[] {
  const artifacts = report.artifacts;
  const named = isReportV4(report)
    ? Object.values(report.artifacts.dependencies).flatMap((logs) => [logs.stdout, logs.stderr])
    : [report.artifacts.dependency_stdout, report.artifacts.dependency_stderr];
  return [artifacts.stdout, artifacts.stderr, ...named].filter(
    (file): file is string => file !== null && LOG_PATH.test(file),
  );
}

/** The page of a run model. */
export function renderRunPage(model: RunModel, logs?: RunLogs): string {
  const diagnostics =
    model.diagnostics.length === 0
      ? '<p class="muted">No diagnostics.</p>'
      : `<ul class="diagnostics">${listItems(model.diagnostics.slice(0, DIAGNOSTIC_LIMIT))}</ul>${leftOut(model.diagnostics.length, DIAGNOSTIC_LIMIT, "diagnostics are")}`;
  const body = `<h1 id="scenario">${esc(model.scenarioName)}</h1>
${verdictRow(model.result, esc(model.reasonCode), "reason")}
<section id="summary">${factsList(model.facts)}</section>
<section id="diagnostics"><h2>Diagnostics</h2>${diagnostics}</section>
<section id="timeline"><h2>Timeline</h2>${renderTimeline(model)}</section>
${faultsSection(model)}
${evidenceSection(model)}
${operationsSection(model)}
${checksSection(model)}
${dependenciesSection(model)}
${logsSection(logs)}
<footer>Built from report.json and events.jsonl of run ${esc(model.runId)}${logs === undefined ? "" : ", with links to its logs"}.</footer>`;
  return page(`${model.result} · ${model.scenarioName}`, "run report", body);
}

/**
 * What the page takes from a run folder's events.jsonl, read as a stream (memory bounded by the
 * open operations and a few numbers per operation). A log the stream cannot draw alone (never
 * one the recorder writes) is read again whole.
 */
export async function readRunEvents(folder: string): Promise<RunEvents> {
  const stream = new RunEventsStream();
  let streaming = true;
  await forEachSavedEvent(folder, (event) => {
    streaming = stream.push(event);
    return streaming;
  });
  return streaming ? stream.result() : runEventsOf(await readSavedEvents(folder));
}

/** The log links and excerpts of a run's page (excerpts only for a failed report-4 or -5 run). */
export async function runLogs(folder: string, report: Report): Promise<RunLogs> {
  const excerpts = isReportV4(report)
    ? await failureExcerpts(folder, {
        result: report.result,
        reasonCode: report.reason_code,
        diagnostics: report.diagnostics,
        dependencies: report.dependencies.map((dependency) => dependency.name),
      })
    : [];
  return { files: logFiles(report), excerpts };
}

/**
 * The page of a run from its typed report (as built by the run, or read strictly from
 * report.json) and the folder's events.jsonl, streamed.
 */
export async function renderRunReport(folder: string, report: Report): Promise<string> {
  return renderRunPage(runModel(report, await readRunEvents(folder)), await runLogs(folder, report));
}

/** Reads a run folder's report.json (strictly) and events.jsonl and renders its page. */
export async function renderRunFolder(folder: string): Promise<string> {
  return renderRunReport(folder, (await readSavedReport(folder)).report);
}
