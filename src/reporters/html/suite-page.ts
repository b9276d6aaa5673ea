/**
 * `index.html`: a suite's verdict, counts and one row per scenario linking to its run page; a
 * scenario run with trials shows its trials' summary and a row of trial marks, each linking to
 * that trial's run page.
 */
import { trialsLine } from "../../report/trials.js";
import type { EntryDetail, SuiteView } from "../entry-details.js";
import { esc, factsList, formatMs, listItems, page, verdictRow, wallTime } from "./page.js";
import { TRIAL_MARKS_CSS, trialMarks } from "./trial-marks.js";

function runCell(detail: EntryDetail | undefined, entry: SuiteView["document"]["entries"][number]): string {
  if (entry.trials !== undefined) return trialMarks(entry.trials, detail?.trialPages ?? []);
  return detail?.page === null || detail?.page === undefined
    ? '<span class="muted">—</span>'
    : `<a class="run-link" href="${esc(encodeURI(detail.page))}">report</a>`;
}

/** The suite page; links are relative to the folder the page is written to. */
export function renderSuitePage(view: SuiteView): string {
  const { document, details } = view;
  const entries = document.entries;
  const count = (result: string): number => entries.filter((entry) => entry.result === result).length;
  const failed = count("FAILED");
  const verdict = document.interrupted ? "INTERRUPTED" : failed > 0 ? "FAILED" : "PASSED";
  const shard = document.shard === null ? "" : ` · shard ${document.shard.index}/${document.shard.total}`;
  const withTrials = entries.some((entry) => entry.trials !== undefined);
  const flaky = entries.filter((entry) => entry.trials?.class === "flaky").length;
  const facts: [string, string][] = [
    ["Suite", document.suite_id],
    ["Started", document.started_at],
    ["Wall time", wallTime(document.started_at, document.finished_at)],
    ["Scenarios", String(entries.length)],
    ["Passed", String(count("PASSED"))],
    ["Recovered", String(count("RECOVERED"))],
    ["Failed", String(failed)],
    ...(withTrials ? ([["Flaky", String(flaky)]] as [string, string][]) : []),
  ];
  const rows = entries
    .map((entry, index) => {
      const detail = details[index];
      const link = runCell(detail, entry);
      const diagnostics = entry.trials === undefined ? (detail?.diagnostics ?? []) : [];
      const trials =
        entry.trials === undefined
          ? ""
          : `<div class="trials-summary">${esc(trialsLine(entry.trials))} · minimum ${esc(entry.trials.min_pass_rate)}</div>`;
      const classAttribute = entry.trials === undefined ? "" : ` data-class="${esc(entry.trials.class)}"`;
      const notes =
        entry.result === "FAILED" && diagnostics.length > 0
          ? `<ul class="diagnostics">${listItems(diagnostics.slice(0, 6))}${diagnostics.length > 6 ? `<li>… ${diagnostics.length - 6} more</li>` : ""}</ul>`
          : "";
      return `<tr class="entry" data-result="${esc(entry.result)}"${classAttribute}><td><span class="badge ${esc(entry.result)}">${esc(entry.result)}</span></td><td class="reason">${esc(entry.reason_code)}</td><td class="num">${esc(formatMs(entry.duration_ms))}</td><td><b>${esc(entry.name)}</b><div class="mono muted">${esc(entry.path)}</div>${trials}${notes}</td><td>${link}</td></tr>`;
    })
    .join("");
  const interrupted = document.interrupted
    ? '<p class="note">The suite was interrupted: only the scenarios that finished are listed.</p>'
    : "";
  const body = `<h1>Suite ${esc(document.suite_id)}${esc(shard)}</h1>
${withTrials ? `<style>${TRIAL_MARKS_CSS}</style>\n` : ""}${verdictRow(verdict, `${entries.length} scenarios · ${count("PASSED")} passed · ${count("RECOVERED")} recovered · ${failed} failed${withTrials ? ` · ${flaky} flaky` : ""}`)}
${interrupted}
<section id="summary">${factsList(facts)}</section>
<section id="entries"><h2>Scenarios</h2><table><thead><tr><th>Result</th><th>Reason</th><th class="num">Duration</th><th>Scenario</th><th>${withTrials ? "Runs" : "Run"}</th></tr></thead><tbody>${rows}</tbody></table></section>
<footer>Built from suite.json and each run's report.json.</footer>`;
  return page(`${verdict} · suite ${document.suite_id}`, "suite report", body);
}
