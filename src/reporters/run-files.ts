/** Reporter files of a single run (`agentchaos run --reporter`, `report <run-folder>`). */
import type { RunResult } from "../events/types.js";
import { exitCodeFor } from "../report/exit-code.js";
import type { SuiteDocument } from "../report/suite-document.js";
import { writeFileAtomically } from "../support/write-file.js";
import { renderCtrf } from "./ctrf/ctrf.js";
import { loadSuiteView, type SuiteView } from "./entry-details.js";
import { renderRunFolder } from "./html/run-page.js";
import { renderJunit } from "./junit/junit.js";
import type { ReporterName } from "./names.js";
import { readSavedReport } from "./saved-run.js";

export type { ReporterName };

/**
 * A run folder seen as a one-entry suite: `path` is `scenario.yaml` and `run_folder` `.`, both
 * relative to the run folder where these reports live.
 */
export async function runAsSuiteView(folder: string): Promise<SuiteView> {
  const { report } = await readSavedReport(folder);
  const workload = (report.workload ?? {}) as Record<string, unknown>;
  const timing = (report.timing ?? {}) as Record<string, unknown>;
  const result = String(report.result) as RunResult;
  const reason = String(report.reason_code);
  const interrupted = workload.interrupted === true;
  const document: SuiteDocument = {
    schema_version: 1,
    suite_id: String(report.run_id),
    started_at: String(timing.started_at ?? ""),
    finished_at: String(timing.completed_at ?? ""),
    interrupted,
    shard: null,
    entries: [
      {
        path: "scenario.yaml",
        name: String(report.scenario_name),
        result,
        reason_code: reason,
        exit_code: exitCodeFor(result, reason, interrupted),
        duration_ms: typeof report.duration_ms === "number" ? report.duration_ms : 0,
        run_folder: ".",
      },
    ],
  };
  return loadSuiteView(folder, document);
}

/** Renders one format of a run folder. */
export async function renderRunFormat(folder: string, format: "html" | "junit" | "ctrf"): Promise<string> {
  if (format === "html") return renderRunFolder(folder);
  const view = await runAsSuiteView(folder);
  return format === "junit" ? renderJunit(view, { classname: "name" }) : renderCtrf(view);
}

const FILES = { html: "report.html", junit: "junit.xml", ctrf: "ctrf.json" } as const;

/** Writes the chosen reporters' files into a finished run folder; returns their absolute paths. */
export async function writeRunReporters(
  folder: string,
  reporters: readonly ReporterName[],
): Promise<string[]> {
  const written: string[] = [];
  for (const name of reporters) {
    if (name === "json") continue;
    written.push(await writeFileAtomically(folder, FILES[name], await renderRunFormat(folder, name)));
  }
  return written;
}
