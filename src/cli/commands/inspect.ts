import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ReportError } from "../../report/errors.js";
import { readReport } from "../../report/reader.js";
import { renderSummary } from "../../report/summary.js";
import { failedRunExcerpts } from "../../runtime/failed-run-excerpts.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";

/** A folder holding an events.jsonl: a run folder, finished or not. */
function isRunFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, "events.jsonl"));
  } catch {
    return false;
  }
}

/**
 * `agentchaos inspect <run-folder | report.json>`: reads one report strictly and prints its
 * summary, as `run` printed it. Exits 0 for any valid report whatever its result, 2 when it
 * cannot be read. Starts nothing, modifies nothing; reads no other file, except the logs a
 * failed schema-2 run quotes (see report/failure-excerpts.ts), and, when a folder has no
 * report.json, whether events.jsonl exists (to point at `--recover`).
 */
export async function inspectCommand(target: string, io: CliIo): Promise<number> {
  try {
    const { report, path } = await readReport(resolve(io.cwd, target));
    const excerpts = await failedRunExcerpts(report, dirname(path));
    io.stdout.write(renderSummary(report, path, excerpts));
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    io.stderr.write(`Cannot inspect report: ${error.message}\n`);
    const folder = resolve(io.cwd, target);
    if (error.code === "REPORT_NOT_FOUND" && isRunFolder(folder)) {
      io.stderr.write(
        `This run folder has no report.json (the run did not finish). For the verdict its events support: agentchaos inspect --recover ${terminalSafe(folder)}\n`,
      );
    }
    return EXIT.USAGE;
  }
}
