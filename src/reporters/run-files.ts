/** Reporter files of a single run (`agentchaos run --reporter`, `report <run-folder>`). */
import { exitCodeFor } from "../report/exit-code.js";
import type { SuiteDocument } from "../report/suite-document.js";
import type { Report } from "../report/types.js";
import { runPageLink, type SuiteView, savedRunDetail } from "./entry-details.js";
import { renderRunReport } from "./html/run-page.js";
import type { ReporterName } from "./names.js";
import { type ReporterFormat, renderEntryList, writeReporterFiles } from "./reporter-files.js";

export type { ReporterName };

/** A run's typed report and the absolute path of its `report.json`. */
export interface RunReport {
  readonly report: Report;
  readonly path: string;
}

/**
 * A run folder seen as a one-entry suite: `path` is `scenario.yaml` and `run_folder` `.`, both
 * relative to the run folder where these reports live.
 */
export async function runAsSuiteView(folder: string, run: RunReport): Promise<SuiteView> {
  const { report } = run;
  const interrupted = report.workload.interrupted;
  const document: SuiteDocument = {
    schema_version: 1,
    suite_id: report.run_id,
    started_at: report.timing.started_at,
    finished_at: report.timing.completed_at,
    interrupted,
    shard: null,
    entries: [
      {
        path: "scenario.yaml",
        name: report.scenario_name,
        result: report.result,
        reason_code: report.reason_code,
        exit_code: exitCodeFor(report.result, report.reason_code, interrupted),
        duration_ms: report.duration_ms,
        run_folder: ".",
      },
    ],
  };
  const page = await runPageLink(folder, ".", "");
  return { document, details: [await savedRunDetail(run.report, run.path, page)] };
}

/** Renders one format of a run folder from its typed report (events and logs read from the folder). */
export async function renderRunFormat(
  folder: string,
  format: ReporterFormat,
  run: RunReport,
): Promise<string> {
  if (format === "html") return renderRunReport(folder, run.report);
  return renderEntryList(await runAsSuiteView(folder, run), format, "name");
}

const FILES = { html: "report.html", junit: "junit.xml", ctrf: "ctrf.json" } as const;

/**
 * Writes the chosen reporters' files into a finished run folder from the report the run built
 * (report.json is not read again); returns their absolute paths.
 */
export async function writeRunReporters(
  folder: string,
  reporters: readonly ReporterName[],
  run: RunReport,
): Promise<string[]> {
  return writeReporterFiles(folder, reporters, FILES, (format) => renderRunFormat(folder, format, run));
}
