/**
 * A series of trials drawn as a row of marks, one per trial in trial order: ✓ for a trial that
 * passed (PASSED or RECOVERED), ✗ for one that failed, each a link to its run page when there
 * is one, its result and reason in the title. Shared by the suite and explore pages.
 */
import type { TrialsSummary } from "../../report/trials.js";
import { esc } from "./page.js";

export const TRIAL_MARKS_CSS = `
.trial-marks{display:flex;flex-wrap:wrap;gap:3px;min-width:130px;max-width:260px}
.trial-mark{display:inline-block;min-width:18px;height:18px;line-height:18px;border-radius:4px;text-align:center;font-size:11px;font-weight:700;text-decoration:none}
.trials-summary{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted);margin-top:3px}
`;

/** The marks; `pages[i]` is the link of `summary.runs[i]` (relative to the page), or null. */
export function trialMarks(summary: TrialsSummary, pages: readonly (string | null)[]): string {
  const marks = summary.runs.map((run, index) => {
    const glyph = run.result === "FAILED" ? "✗" : "✓";
    const title = `trial ${run.trial}: ${run.result} / ${run.reason_code}`;
    const attributes = `class="trial-mark ${esc(run.result)}" data-trial="${run.trial}" data-result="${esc(run.result)}" title="${esc(title)}"`;
    const page = pages[index] ?? null;
    return page === null
      ? `<span ${attributes}>${glyph}</span>`
      : `<a ${attributes} href="${esc(encodeURI(page))}">${glyph}</a>`;
  });
  return `<span class="trial-marks">${marks.join("")}</span>`;
}
