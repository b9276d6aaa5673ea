/**
 * Reporter files of an explore, next to explore.json: `junit.xml` and `ctrf.json` with one test
 * case per experiment (named by its points and faults; a flaky one is reported with its
 * confirmation's verdict and ` (flaky)` after its name), and `index.html`, the matrix page.
 */
import type { ExploreDocument } from "../report/explore-document.js";
import { type SuiteDocument, type SuiteEntry, suiteVersion } from "../report/suite-document.js";
import { loadSuiteView, runPageLink } from "./entry-details.js";
import { renderExplorePage } from "./html/explore-page.js";
import type { ReporterName } from "./names.js";
import { FOLDER_FILES, type ReporterFormat, renderEntryList, writeReporterFiles } from "./reporter-files.js";

/** The experiments as suite entries, in experiment order. */
export function exploreAsSuite(document: ExploreDocument): SuiteDocument {
  const entries = document.experiments.map((experiment): SuiteEntry => {
    const shown = experiment.flaky && experiment.confirmation !== null ? experiment.confirmation : experiment;
    return {
      path: document.scenario.path,
      name: experiment.flaky ? `${experiment.label} (flaky)` : experiment.label,
      result: shown.result,
      reason_code: shown.reason_code,
      exit_code: shown.exit_code,
      duration_ms: shown.duration_ms,
      run_folder: shown.run_folder,
      ...(experiment.trials === undefined ? {} : { trials: experiment.trials }),
    };
  });
  return {
    schema_version: suiteVersion(entries),
    suite_id: document.explore_id,
    started_at: document.started_at,
    finished_at: document.finished_at,
    interrupted: document.status === "interrupted",
    shard: null,
    entries,
  };
}

/** Link from the explore folder to each run folder's page: report.html when written, else report.json. */
async function runPages(folder: string, document: ExploreDocument): Promise<Map<string, string>> {
  const folders = [
    ...document.baseline.map((run) => run.run_folder),
    ...document.experiments.flatMap((experiment) => [
      experiment.run_folder,
      experiment.confirmation?.run_folder ?? null,
      ...(experiment.trials?.runs.map((run) => run.run_folder) ?? []),
    ]),
  ];
  const pages = new Map<string, string>();
  for (const runFolder of folders) {
    if (runFolder !== null && !pages.has(runFolder))
      pages.set(runFolder, await runPageLink(folder, runFolder, ""));
  }
  return pages;
}

/** Renders one format of an explore folder's document. */
export async function renderExploreFormat(
  folder: string,
  document: ExploreDocument,
  format: ReporterFormat,
): Promise<string> {
  if (format === "html") return renderExplorePage(document, await runPages(folder, document));
  return renderEntryList(await loadSuiteView(folder, exploreAsSuite(document)), format, "path");
}

/** Writes the reporters' files next to explore.json; returns their absolute paths. */
export async function writeExploreReporters(
  folder: string,
  document: ExploreDocument,
  reporters: readonly ReporterName[],
): Promise<string[]> {
  return writeReporterFiles(folder, reporters, FOLDER_FILES, (format) =>
    renderExploreFormat(folder, document, format),
  );
}
