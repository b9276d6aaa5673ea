/** What the reporter files of a run, a suite and an explore share: their names and how they are written. */
import { writeFileAtomically } from "../support/write-file.js";
import { renderCtrf } from "./ctrf/ctrf.js";
import type { SuiteView } from "./entry-details.js";
import { renderJunit } from "./junit/junit.js";
import type { ReporterName } from "./names.js";

/** A reporter with a file of its own (`json` is the run's, suite's or explore's document itself). */
export type ReporterFormat = Exclude<ReporterName, "json">;

/** The file names next to suite.json and explore.json. */
export const FOLDER_FILES = { html: "index.html", junit: "junit.xml", ctrf: "ctrf.json" } as const;

/** JUnit XML (each test case classed by the entry's path or name) or CTRF of a suite view. */
export function renderEntryList(
  view: SuiteView,
  format: "junit" | "ctrf",
  classname: "path" | "name",
): string {
  return format === "junit" ? renderJunit(view, { classname }) : renderCtrf(view);
}

/** Writes the file of each chosen reporter into `folder`, in the order chosen; returns their absolute paths. */
export async function writeReporterFiles(
  folder: string,
  reporters: readonly ReporterName[],
  files: Readonly<Record<ReporterFormat, string>>,
  render: (format: ReporterFormat) => string | Promise<string>,
): Promise<string[]> {
  const written: string[] = [];
  for (const name of reporters) {
    if (name !== "json") written.push(await writeFileAtomically(folder, files[name], await render(name)));
  }
  return written;
}
