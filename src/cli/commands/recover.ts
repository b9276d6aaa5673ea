import { join, resolve } from "node:path";
import { RecoveryError, recoverRun, writeRecoveredReport } from "../../report/recover.js";
import { RECOVERED_HEADING, renderSummaryBody } from "../../report/summary.js";
import { type CliIo, EXIT } from "../../support/cli-io.js";
import { terminalSafe } from "../../support/terminal-text.js";

/**
 * `agentchaos inspect --recover <run-folder> [--write]`: the verdict the events of an incomplete
 * run support (killed, crashed, disk full), printed as a summary marked as recovered. With
 * `--write` it is also saved as `report.recovered.json` (created, never replacing anything).
 * Exits 0 when a verdict was recovered, 2 when there is nothing to recover it from.
 */
export async function recoverCommand(target: string, write: boolean, io: CliIo): Promise<number> {
  try {
    const recovered = await recoverRun(resolve(io.cwd, target));
    const written = write ? await writeRecoveredReport(recovered) : null;
    const notes = [`${recovered.eventCount} events read`];
    notes.push(
      recovered.runCompleted ? "the run completed but wrote no report" : "RUN_COMPLETED was never recorded",
    );
    if (recovered.stoppedAtLine !== null)
      notes.push(`line ${recovered.stoppedAtLine} and after left out (cut off or invalid)`);
    const source =
      written === null
        ? `Events:\n${terminalSafe(join(recovered.runDir, "events.jsonl"))}`
        : `Report:\n${terminalSafe(written)}`;
    io.stdout.write(
      `\n${RECOVERED_HEADING}\n${notes.join("; ")}.\n\n${renderSummaryBody(recovered.report)}\n${source}\n`,
    );
    return EXIT.OK;
  } catch (error) {
    if (!(error instanceof RecoveryError)) throw error;
    io.stderr.write(`Cannot recover run: ${terminalSafe(error.message)}\n`);
    return EXIT.USAGE;
  }
}
