/**
 * What the suite reporters show beyond `suite.json`: each entry's diagnostics and result
 * summary, from its run folder's `report.json` read strictly into the typed report, and the link
 * to its page.
 */
import { realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SuiteDocument, SuiteEntry } from "../report/suite-document.js";
import { renderSummary } from "../report/summary.js";
import { type TrialsRecord, trialRunLine, trialsLine } from "../report/trials.js";
import type { Report } from "../report/types.js";
import { readSavedReport } from "./saved-run.js";

export interface EntryDetail {
  readonly diagnostics: readonly string[];
  /** The run summary as `inspect` prints it (or the problems of an invalid scenario). */
  readonly summary: string;
  /** Link to the run's page, relative to the folder holding the suite's files; null without a run. */
  readonly page: string | null;
  /** An entry with trials: the link to each trial's run page (null without one), in `trials.runs` order. */
  readonly trialPages?: readonly (string | null)[];
}

/** A suite document with each entry's details (same order), as the reporters take it. */
export interface SuiteView {
  readonly document: SuiteDocument;
  readonly details: readonly EntryDetail[];
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The link to a run folder's page: report.html when written, else report.json. */
export async function runPageLink(base: string, runFolder: string, linkPrefix: string): Promise<string> {
  const file = (await exists(join(resolve(base, runFolder), "report.html"))) ? "report.html" : "report.json";
  return [linkPrefix, runFolder, file].filter((part) => part !== "" && part !== ".").join("/");
}

/** An entry with trials: its summary line, each trial's line, a link per trial. */
async function trialsDetailOf(base: string, trials: TrialsRecord, linkPrefix: string): Promise<EntryDetail> {
  const trialPages: (string | null)[] = [];
  for (const run of trials.runs) {
    trialPages.push(run.run_folder === null ? null : await runPageLink(base, run.run_folder, linkPrefix));
  }
  const lines = trials.runs.map((run) => trialRunLine(run, trials.trials, { folder: true }));
  return {
    diagnostics: [`${trialsLine(trials)}; minimum pass rate ${trials.min_pass_rate}`],
    summary: `${lines.join("\n")}\n${trialsLine(trials)}\n`,
    page: null,
    trialPages,
  };
}

async function detailOf(base: string, entry: SuiteEntry, linkPrefix: string): Promise<EntryDetail> {
  if (entry.trials !== undefined) return trialsDetailOf(base, entry.trials, linkPrefix);
  if (entry.run_folder === null) {
    const problems = entry.problems ?? [];
    return {
      diagnostics: problems,
      summary: `${entry.reason_code}: ${entry.path}\n${problems.map((line) => `  ${line}\n`).join("")}`,
      page: null,
    };
  }
  const folder = resolve(base, entry.run_folder);
  const page = await runPageLink(base, entry.run_folder, linkPrefix);
  try {
    const { report, path } = await readSavedReport(folder);
    return await savedRunDetail(report, path, page);
  } catch (error) {
    const message = error instanceof Error ? error.message : "report.json is unreadable";
    return { diagnostics: [`run folder ${entry.run_folder}: ${message}`], summary: "", page: null };
  }
}

/**
 * The detail of a run from its typed report: its diagnostics and the summary `inspect` prints,
 * which names the report's resolved path.
 */
export async function savedRunDetail(report: Report, path: string, page: string): Promise<EntryDetail> {
  const resolved = await realpath(path).catch(() => path);
  return { diagnostics: report.diagnostics, summary: renderSummary(report, resolved), page };
}

/**
 * Loads the details of every entry; `base` is the folder the entries' `run_folder`s are relative
 * to, `linkPrefix` the path from where the pages are written to `base` (`""` when the same).
 */
export async function loadSuiteView(
  base: string,
  document: SuiteDocument,
  linkPrefix = "",
): Promise<SuiteView> {
  const details: EntryDetail[] = [];
  for (const entry of document.entries) details.push(await detailOf(base, entry, linkPrefix));
  return { document, details };
}
