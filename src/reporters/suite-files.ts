/** Reporter files of a suite (`suite`, `merge`, `report <suite-folder>`). */
import type { SuiteDocument } from "../report/suite-document.js";
import { writeFileAtomically } from "../support/write-file.js";
import { renderCtrf } from "./ctrf/ctrf.js";
import { loadSuiteView, type SuiteView } from "./entry-details.js";
import { renderSuitePage } from "./html/suite-page.js";
import { renderJunit } from "./junit/junit.js";
import type { ReporterName } from "./names.js";

/** Renders one format of a suite view; `json` is suite.json itself. */
export function renderSuiteFormat(view: SuiteView, format: "html" | "junit" | "ctrf"): string {
  if (format === "html") return renderSuitePage(view);
  return format === "junit" ? renderJunit(view, { classname: "path" }) : renderCtrf(view);
}

const FILES = { html: "index.html", junit: "junit.xml", ctrf: "ctrf.json" } as const;

/** Writes the reporters' files next to suite.json in `folder`; returns their absolute paths. */
export async function writeSuiteReporters(
  folder: string,
  document: SuiteDocument,
  reporters: readonly ReporterName[],
): Promise<string[]> {
  const formats = reporters.filter((name): name is "html" | "junit" | "ctrf" => name !== "json");
  if (formats.length === 0) return [];
  const view = await loadSuiteView(folder, document);
  const written: string[] = [];
  for (const format of formats) {
    written.push(await writeFileAtomically(folder, FILES[format], renderSuiteFormat(view, format)));
  }
  return written;
}
