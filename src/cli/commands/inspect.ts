import { resolve } from "node:path";
import { ReportError } from "../../report/errors.js";
import { readReport } from "../../report/reader.js";
import { renderSummary } from "../../report/summary.js";
import { type CliIo, EXIT } from "../io.js";

/**
 * `agentchaos inspect <run-folder | report.json>`: reads one report strictly and prints its
 * summary. Exits 0 for any valid report whatever its result, 2 when it cannot be read.
 * Starts nothing, reads no other file, modifies nothing.
 */
export async function inspectCommand(target: string, io: CliIo): Promise<number> {
  try {
    const { report, path } = await readReport(resolve(io.cwd, target));
    io.stdout.write(renderSummary(report, path));
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    io.stderr.write(`Cannot inspect report: ${error.message}\n`);
    return EXIT.USAGE;
  }
}
