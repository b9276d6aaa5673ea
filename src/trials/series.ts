/**
 * The trial scheduler (see docs/trials.md): runs each series' trials — complete runs of the same
 * scenario, same faults, same seeds — each exactly as `agentchaos run` would, into its series'
 * trials folder, through the suite's port-aware scheduler: `jobs` at a time, never two at once
 * that name the same fixed port (so the trials of a fixed-port scenario run one at a time).
 * Series are scheduled in list order, trial 1 to N each. An interrupted trial is not a result.
 */
import type { TrialRun } from "../report/trials.js";
import { finishedRun, type RunManySettings } from "../runtime/finished-run.js";
import { scenarioFixedPorts } from "../runtime/fixed-ports.js";
import { runScheduled } from "../runtime/run-scheduler.js";
import type { AnyScenario } from "../scenario/parse.js";

export interface Series<K> {
  /** What the caller knows the series by. */
  readonly key: K;
  readonly scenario: AnyScenario;
  /** Trials to run, at least 1. */
  readonly count: number;
  /** Makes the trials folder (absolute); called once, when the series' first trial starts. */
  readonly folder: () => Promise<string>;
  /** The run folders' `scenario.yaml` text when the scenario was built in memory (explore). */
  readonly scenarioText?: string;
}

export interface SeriesDone {
  /** The trials folder; null when no trial started or the folder could not be made. */
  readonly folder: string | null;
  /** The finished trials, by trial number; `run_folder`s relative to the trials folder. */
  readonly runs: readonly TrialRun[];
  /** Every planned trial finished. */
  readonly complete: boolean;
  /** When the first trial started (ISO 8601); null when none did. */
  readonly startedAt: string | null;
  /** The trials planned. */
  readonly count: number;
}

export interface SeriesSettings<K> extends RunManySettings {
  /** Asked before each start, besides the interrupt (a suite's fail-fast). */
  readonly stopped?: () => boolean;
  /** Each finished trial, in completion order. */
  readonly onTrial?: (key: K, run: TrialRun) => void;
  /** Each series once all its trials have finished, in completion order. */
  readonly onSeries?: (key: K, done: SeriesDone) => void | Promise<void>;
}

interface SeriesState<K> {
  readonly series: Series<K>;
  folder: Promise<string> | null;
  folderPath: string | null;
  startedAt: string | null;
  readonly runs: TrialRun[];
  ended: number;
}

/** Runs one trial into the series' folder; null when it was interrupted. Never throws. */
async function runTrial<K>(
  state: SeriesState<K>,
  trial: number,
  settings: SeriesSettings<K>,
): Promise<TrialRun | null> {
  const { series } = state;
  state.startedAt ??= new Date().toISOString();
  state.folder ??= series.folder();
  const folder = await state.folder.catch(() => null);
  if (folder === null) {
    if (settings.interrupt?.aborted === true) return null;
    return { trial, result: "FAILED", reason_code: "INTERNAL_ERROR", duration_ms: 0, run_folder: null };
  }
  state.folderPath = folder;
  const finished = await finishedRun(series.scenario, folder, settings, series.scenarioText);
  if (finished === null) return null;
  const { result, reason_code, duration_ms, run_folder } = finished.run;
  return { trial, result, reason_code, duration_ms, run_folder };
}

/** Runs every series; returns what each one finished (in the order given). */
export async function runSeries<K>(
  list: readonly Series<K>[],
  settings: SeriesSettings<K>,
): Promise<Map<K, SeriesDone>> {
  const states = list.map(
    (series): SeriesState<K> => ({
      series,
      folder: null,
      folderPath: null,
      startedAt: null,
      runs: [],
      ended: 0,
    }),
  );
  const doneOf = (state: SeriesState<K>): SeriesDone => ({
    folder: state.folderPath,
    runs: [...state.runs].sort((a, b) => a.trial - b.trial),
    complete: state.runs.length === state.series.count,
    startedAt: state.startedAt,
    count: state.series.count,
  });
  const items = states.flatMap((state) => {
    const ports = scenarioFixedPorts(state.series.scenario);
    return Array.from({ length: state.series.count }, (_, index) => ({ state, trial: index + 1, ports }));
  });
  await runScheduled(items, {
    jobs: settings.jobs,
    stopped: () => settings.interrupt?.aborted === true || settings.stopped?.() === true,
    run: async ({ state, trial }) => {
      const run = await runTrial(state, trial, settings);
      state.ended += 1;
      if (run !== null) {
        state.runs.push(run);
        settings.onTrial?.(state.series.key, run);
      }
      if (state.ended === state.series.count && state.runs.length === state.series.count) {
        await settings.onSeries?.(state.series.key, doneOf(state));
      }
    },
  });
  return new Map(states.map((state) => [state.series.key, doneOf(state)]));
}
