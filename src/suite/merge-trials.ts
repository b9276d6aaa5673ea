/**
 * What `merge` does with trials (see docs/trials.md): run folders are made relative to the
 * merged folder, and the trials of one scenario found in several shards become one series —
 * trials renumbered in shard order, summary and verdict computed again over all of them.
 */
import { resolve } from "node:path";
import type { SuiteEntry } from "../report/suite-document.js";
import { SuiteError } from "../report/suite-errors.js";
import type { TrialRun } from "../report/trials.js";
import { slashRelative } from "../support/slash-path.js";
import { seriesEntry } from "./trial-entries.js";

function moved(runFolder: string | null, from: string, to: string): string | null {
  return runFolder === null ? null : slashRelative(to, resolve(from, runFolder));
}

/** The entry with its run folders (its own and its trials') relative to `to` instead of `from`. */
export function relocateEntry(entry: SuiteEntry, from: string, to: string): SuiteEntry {
  const trials = entry.trials;
  return {
    ...entry,
    run_folder: moved(entry.run_folder, from, to),
    ...(trials === undefined
      ? {}
      : {
          trials: {
            ...trials,
            runs: trials.runs.map((run) => ({ ...run, run_folder: moved(run.run_folder, from, to) })),
          },
        }),
  };
}

/**
 * One entry for the trials of a scenario found in two shards (`where` names them for messages).
 * Both must carry trials judged against the same minimum; the first keeps its run folder.
 */
export function combineTrialEntries(first: SuiteEntry, second: SuiteEntry, where: string): SuiteEntry {
  const a = first.trials;
  const b = second.trials;
  if (a === undefined || b === undefined) {
    throw new SuiteError("MERGE_DUPLICATE_SCENARIO", `scenario ${first.path} is in both ${where}`);
  }
  if (a.min_pass_rate !== b.min_pass_rate) {
    throw new SuiteError(
      "MERGE_TRIALS_MISMATCH",
      `scenario ${first.path} has trials judged against minimum pass rates ${a.min_pass_rate} and ${b.min_pass_rate} in ${where}`,
    );
  }
  const runs: TrialRun[] = [...a.runs, ...b.runs].map((run, index) => ({ ...run, trial: index + 1 }));
  return seriesEntry(
    { ...first, duration_ms: first.duration_ms + second.duration_ms },
    runs,
    a.min_pass_rate,
  );
}
