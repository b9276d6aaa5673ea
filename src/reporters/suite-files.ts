/** Reporter files of a suite (`suite`, `merge`, `report <suite-folder>`). */
import type { SuiteDocument } from "../report/suite-document.js";
import { loadSuiteView, type SuiteView } from "./entry-details.js";
import { renderSuitePage } from "./html/suite-page.js";
import type { ReporterName } from "./names.js";
import { FOLDER_FILES, type ReporterFormat, renderEntryList, writeReporterFiles } from "./reporter-files.js";

/** Renders one format of a suite view; `json` is suite.json itself. */
export function renderSuiteFormat(view: SuiteView, format: ReporterFormat): string {
  return format === "html" ? renderSuitePage(view) : renderEntryList(view, format, "path");
}

/** Writes the reporters' files next to suite.json in `folder`; returns their absolute paths. */
export async function writeSuiteReporters(
  folder: string,
  document: SuiteDocument,
  reporters: readonly ReporterName[],
): Promise<string[]> {
  if (reporters.every((name) => name === "json")) return [];
  const view = await loadSuiteView(folder, document);
  return writeReporterFiles(folder, reporters, FOLDER_FILES, (format) => renderSuiteFormat(view, format));
}
