/**
 * One experiment as the commands that run many (suite, trials, explore) record it: its outcome
 * with its run folder relative to the folder it was made in. An interrupted run is not a result;
 * a run that cannot be made at all is a FAILED `INTERNAL_ERROR` (exit code 3) without a folder.
 */
import type { RunRecord } from "../report/explore-document.js";
import { verifyRecord } from "../report/v4/truth.js";
import type { ReporterName } from "../reporters/names.js";
import type { AnyScenario } from "../scenario/parse.js";
import { slashRelative } from "../support/slash-path.js";
import { experiment } from "./experiment.js";

/** How suite, trials and explore run their experiments. */
export interface RunManySettings {
  readonly jobs: number;
  readonly interrupt?: AbortSignal;
  readonly forceStop?: AbortSignal;
  /** Reporter files written into each run folder. */
  readonly reporters: readonly ReporterName[];
}

export interface FinishedRun {
  /** `run_folder` relative to `outputDir`, `/`-separated. */
  readonly run: RunRecord;
  /** The run folder (absolute), or null when none was made. */
  readonly runFolder: string | null;
}

/**
 * Runs the experiment into `outputDir` (absolute), with `scenarioText` as its run folder's
 * scenario.yaml when given; null when it was interrupted. Never throws.
 */
export async function finishedRun(
  scenario: AnyScenario,
  outputDir: string,
  settings: RunManySettings,
  scenarioText?: string,
): Promise<FinishedRun | null> {
  try {
    const done = await experiment(scenario, {
      outputDir,
      ...(settings.interrupt === undefined ? {} : { interrupt: settings.interrupt }),
      ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
      reporters: settings.reporters,
      ...(scenarioText === undefined ? {} : { scenarioText }),
    });
    if (done.interrupted) return null;
    return {
      run: {
        result: done.result,
        reason_code: done.reasonCode,
        exit_code: done.exitCode,
        duration_ms: done.report.duration_ms,
        run_folder: slashRelative(outputDir, done.runFolder),
        ...verifyRecord(done.report),
      },
      runFolder: done.runFolder,
    };
  } catch {
    if (settings.interrupt?.aborted === true) return null;
    const run = { result: "FAILED", reason_code: "INTERNAL_ERROR", exit_code: 3, duration_ms: 0 } as const;
    return { run: { ...run, run_folder: null }, runFolder: null };
  }
}
