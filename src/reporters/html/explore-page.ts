/**
 * `index.html` of an explore: the verdict, the baseline, the matrix (points × menu faults, each
 * cell linking to its run's report), the pairs of depth 2, the failures with their replays, and
 * what was skipped. Built from explore.json alone (plus which run pages exist).
 */
import type { ExperimentRecord, ExploreDocument, RunRecord } from "../../report/explore-document.js";
import { cellText, exploreMatrix, type MatrixCell } from "../explore-matrix.js";
import { esc, factsList, formatMs, listItems, page, verdictRow, wallTime } from "./page.js";
import { TRIAL_MARKS_CSS, trialMarks } from "./trial-marks.js";

/** Widths of the matrix: the point column, and the least a fault column may shrink to. */
const POINT_COLUMN_PX = 230;
const MIN_COLUMN_PX = 112;

/**
 * The matrix fits the page: fixed column widths (the point column wider), headers and reasons
 * wrapping (reason codes may break after an underscore), and a minimum width per column so a
 * very wide menu scrolls inside its box instead of being cut off.
 */
const EXTRA_CSS = `
table.matrix{table-layout:fixed}
table.matrix th,table.matrix td{white-space:normal;overflow-wrap:break-word;padding:6px 7px}
table.matrix thead th{vertical-align:bottom;font-size:11.5px;line-height:1.3}
table.matrix col.point{width:${POINT_COLUMN_PX}px}
table.matrix td.cell{font-size:12.5px}
table.matrix td.cell a{text-decoration:none}
td.cell.na{color:var(--muted);text-align:center}
td.cell.notrun{color:var(--muted);font-style:italic}
.badge.FLAKY{background:#fff4e5;color:var(--warn)}
.cell .reason{font-size:11.5px;display:block;margin-top:2px}
${TRIAL_MARKS_CSS}`;

/** `html` (already escaped) as a link to the run folder's page, or as it is without one. */
function anchor(pages: ReadonlyMap<string, string>, runFolder: string | null, html: string): string {
  const target = runFolder === null ? undefined : pages.get(runFolder);
  if (target === undefined) return `<span class="muted">${html}</span>`;
  return `<a class="run-link" href="${esc(encodeURI(target))}">${html}</a>`;
}

function link(pages: ReadonlyMap<string, string>, runFolder: string | null, text: string): string {
  return anchor(pages, runFolder, esc(text));
}

function badge(result: string, text: string = result): string {
  return `<span class="badge ${esc(result)}">${esc(text)}</span>`;
}

function experimentBadge(experiment: ExperimentRecord): string {
  return experiment.flaky ? badge("FLAKY") : badge(experiment.result);
}

/** A reason code or fault label that may wrap after each underscore. */
function breakableCode(code: string): string {
  return esc(code).replace(/_/g, "_<wbr>");
}

function cellHtml(cell: MatrixCell, pages: ReadonlyMap<string, string>): string {
  if (cell.kind === "not_applicable") return '<td class="cell na" data-cell="not_applicable">—</td>';
  if (cell.kind === "not_run") return '<td class="cell notrun" data-cell="not_run">not run</td>';
  const { experiment } = cell;
  const state = experiment.flaky ? "flaky" : experiment.result.toLowerCase();
  const trials = experiment.trials;
  if (trials !== undefined) {
    const runPages = trials.runs.map((run) =>
      run.run_folder === null ? null : (pages.get(run.run_folder) ?? null),
    );
    const reason =
      experiment.result === "FAILED" ? `<span class="reason">${esc(experiment.reason_code)}</span>` : "";
    return `<td class="cell" data-cell="${esc(state)}" data-experiment="${esc(experiment.id)}" data-pass-rate="${esc(trials.pass_rate)}" data-class="${esc(trials.class)}" title="${esc(cellText(cell))}">${badge(experiment.flaky ? "FLAKY" : experiment.result, trials.pass_rate.toFixed(2))}${reason}${trialMarks(trials, runPages)}</td>`;
  }
  const reason =
    experiment.result === "FAILED"
      ? `<span class="reason">${breakableCode(experiment.reason_code)}</span>`
      : "";
  const confirmation =
    experiment.confirmation === null ? "" : ` · ${link(pages, experiment.confirmation.run_folder, "re-run")}`;
  return `<td class="cell" data-cell="${esc(state)}" data-experiment="${esc(experiment.id)}" title="${esc(cellText(cell))}">${anchor(pages, experiment.run_folder, experimentBadge(experiment))}${reason}${confirmation}</td>`;
}

function runRow(label: string, run: RunRecord, pages: ReadonlyMap<string, string>): string {
  return `<tr><td>${esc(label)}</td><td>${badge(run.result)}</td><td class="reason">${esc(run.reason_code)}</td><td class="num">${esc(formatMs(run.duration_ms))}</td><td>${link(pages, run.run_folder, "report")}</td></tr>`;
}

function verdictOf(document: ExploreDocument): string {
  if (document.status === "interrupted") return "INTERRUPTED";
  if (document.status === "baseline_failed" || document.summary.failed > 0) return "FAILED";
  return "PASSED";
}

/** The explore page; `pages` maps each run folder to its page, relative to the explore folder. */
export function renderExplorePage(document: ExploreDocument, pages: ReadonlyMap<string, string>): string {
  const verdict = verdictOf(document);
  const { summary, settings } = document;
  const facts: [string, string][] = [
    ["Scenario", document.scenario.name],
    ["File", document.scenario.path],
    ["Started", document.started_at],
    ["Wall time", wallTime(document.started_at, document.finished_at)],
    ["Depth", String(settings.depth)],
    ["Budget", String(settings.budget)],
    ["Seed", String(settings.seed)],
    ["Jobs", String(settings.jobs)],
    ["Menu", settings.menu],
    ...(settings.trials === undefined
      ? []
      : ([
          ["Trials", `${settings.trials} per experiment`],
          ["Minimum pass rate", String(settings.min_pass_rate ?? 1)],
        ] as [string, string][])),
    ["Injection points", String(document.points.length)],
  ];
  const matrix = exploreMatrix(document);
  const matrixHtml =
    matrix.rows.length === 0
      ? '<p class="muted">No injection points.</p>'
      : `<div class="timeline-wrap"><table class="matrix" id="matrix" style="min-width:${POINT_COLUMN_PX + MIN_COLUMN_PX * matrix.columns.length}px"><colgroup><col class="point">${matrix.columns.map(() => "<col>").join("")}</colgroup><thead><tr><th>Point</th>${matrix.columns
          .map((column) => `<th class="mono">${breakableCode(column.label)}</th>`)
          .join("")}</tr></thead><tbody>${matrix.rows
          .map(
            (row) =>
              `<tr data-point="${esc(row.point.id)}"><th class="mono">${esc(row.point.label)}</th>${row.cells
                .map((cell) => cellHtml(cell, pages))
                .join("")}</tr>`,
          )
          .join("")}</tbody></table></div>`;
  const pairs = document.experiments.filter((experiment) => experiment.depth === 2);
  const pairsHtml =
    settings.depth === 2
      ? `<section id="pairs"><h2>Pairs (depth 2)</h2>${
          pairs.length === 0
            ? '<p class="muted">No pair was run.</p>'
            : `<table><thead><tr><th>Result</th><th>Reason</th><th>Faults</th><th>Run</th></tr></thead><tbody>${pairs
                .map(
                  (pair) =>
                    `<tr data-experiment="${esc(pair.id)}"><td>${experimentBadge(pair)}</td><td class="reason">${esc(pair.reason_code)}</td><td class="mono">${esc(pair.label)}</td><td>${link(pages, pair.run_folder, "report")}</td></tr>`,
                )
                .join("")}</tbody></table>`
        }</section>`
      : "";
  const failures = document.experiments.filter((experiment) => experiment.replay !== null);
  const failuresHtml = `<section id="failures"><h2>Failures and replays</h2>${
    failures.length === 0
      ? '<p class="muted">No failure.</p>'
      : `<table><thead><tr><th>Experiment</th><th>Reason</th><th>Replay</th></tr></thead><tbody>${failures
          .map(
            (failure) =>
              `<tr><td class="mono">${esc(failure.label)}</td><td class="reason">${esc(failure.reason_code)}</td><td><a class="replay" href="${esc(encodeURI(failure.replay ?? ""))}">${esc(failure.replay ?? "")}</a></td></tr>`,
          )
          .join(
            "",
          )}</tbody></table><p class="note">Run a replay alone with <code>agentchaos run &lt;explore folder&gt;/&lt;replay&gt;</code>.</p>`
  }</section>`;
  const skippedHtml =
    document.skipped_points.length + document.not_available.length === 0
      ? ""
      : `<section id="skipped"><h2>Skipped</h2><ul class="diagnostics">${listItems([
          ...document.skipped_points.map(
            (point) =>
              `${point.label}: ${point.reason} (seen in ${point.seen_in_runs} of ${settings.baseline_runs} baseline runs)`,
          ),
          ...document.not_available.map((entry) => `${entry.label}: ${entry.reason}`),
        ])}</ul></section>`;
  const counts = `${summary.experiments} experiments · ${summary.passed} passed · ${summary.recovered} recovered · ${summary.failed} failed · ${summary.flaky} flaky`;
  const body = `<style>${EXTRA_CSS}</style>
<h1>Explore ${esc(document.explore_id)}</h1>
${verdictRow(verdict, esc(counts))}
${document.message === null ? "" : `<p class="note" id="message">${esc(document.message)}</p>`}
<section id="summary">${factsList(facts)}</section>
<section id="baseline"><h2>Baseline</h2><table><thead><tr><th>Run</th><th>Result</th><th>Reason</th><th class="num">Duration</th><th>Report</th></tr></thead><tbody>${document.baseline
    .map((run, index) => runRow(`baseline ${index + 1}`, run, pages))
    .join("")}</tbody></table></section>
<section id="matrix-section"><h2>Matrix (depth 1)</h2>${matrixHtml}<p class="note">Rows: injection points (dependency, method, path, ordinal). Columns: the menu's faults. ${settings.trials === undefined ? "Each cell links to its run's report; a flaky cell also to its re-run." : "Each cell shows the pass rate of its trials and a mark per trial linking to that trial's report."}</p></section>
${pairsHtml}
${failuresHtml}
${skippedHtml}
<footer>Built from explore.json.</footer>`;
  return page(`${verdict} · explore ${document.explore_id}`, "explore report", body);
}
