/**
 * Series that keep their record (see docs/trials.md), as a suite and an explore run them: each
 * series' `trials.json` is written into its trials folder once all its trials have finished, and
 * a series cut short (interruption, fail-fast) that finished some trials gets one too once every
 * trial has stopped. A `trials.json` that cannot be written fails the caller like its own files do.
 */
import type { TrialRun } from "../report/trials.js";
import { slashRelative } from "../support/slash-path.js";
import { writeSeriesFile } from "./document.js";
import { runSeries, type Series, type SeriesDone, type SeriesSettings } from "./series.js";

export interface FiledSeriesSettings<K> extends SeriesSettings<K> {
  readonly minPassRate: number;
  /** The scenario as a series' trials.json names it. */
  readonly scenarioOf: (key: K) => { readonly path: string; readonly name: string };
}

/** `runSeries`, each series' trials.json written after its `onSeries`; rejects with the first failed write. */
export async function runFiledSeries<K>(
  list: readonly Series<K>[],
  settings: FiledSeriesSettings<K>,
): Promise<Map<K, SeriesDone>> {
  const writes: Promise<unknown>[] = [];
  const writeErrors: unknown[] = [];
  const write = (key: K, done: SeriesDone, interrupted: boolean): void => {
    const written = writeSeriesFile(done, settings.scenarioOf(key), settings.minPassRate, interrupted);
    writes.push(written.catch((error: unknown) => writeErrors.push(error)));
  };
  const results = await runSeries(list, {
    ...settings,
    onSeries: async (key, done) => {
      await settings.onSeries?.(key, done);
      write(key, done, false);
    },
  });
  for (const [key, done] of results) {
    if (!done.complete && done.runs.length > 0) write(key, done, settings.interrupt?.aborted === true);
  }
  await Promise.all(writes);
  if (writeErrors.length > 0) throw writeErrors[0];
  return results;
}

/**
 * A series' trials folder relative to `from` (null when it has none) and its trials with their
 * run folders relative to `from` too, `/`-separated.
 */
export function seriesRunsFrom(
  done: SeriesDone,
  from: string,
): { readonly folder: string | null; readonly runs: TrialRun[] } {
  const folder = done.folder === null ? null : slashRelative(from, done.folder) || ".";
  const runs = done.runs.map((run) => ({
    ...run,
    run_folder: run.run_folder === null || folder === null ? null : `${folder}/${run.run_folder}`,
  }));
  return { folder, runs };
}
