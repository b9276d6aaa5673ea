/**
 * The explore engine (explore.md): baseline runs, injection points, the menu, depth-1 and
 * depth-2 experiments within the budget, confirmation runs, then the output folder —
 * `explore.json`, `replays/`, every run folder and the reporters' files. The `explore` command
 * and `exploreScenario` are thin shells over `explore()`.
 */
import { availableParallelism } from "node:os";
import { dirname, relative, resolve } from "node:path";
import {
  EXPLORE_FILE_NAME,
  type ExperimentRecord,
  type ExploreDocument,
  type ExploreStatus,
  type RunRecord,
  serializeExplore,
  summarize,
  type UnavailableRecord,
} from "../report/explore-document.js";
import { writeExploreReporters } from "../reporters/explore-files.js";
import type { ReporterName } from "../reporters/names.js";
import { DEFAULT_SUITE_REPORTERS } from "../reporters/names.js";
import { createRunFolder, RunFolderError } from "../runtime/run-folder.js";
import { unsupportedFeature } from "../runtime/support.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { DependencyV2, ScenarioV2 } from "../scenario/types-v2.js";
import { writeFileAtomically } from "../support/write-file.js";
import { unavailableFault } from "./availability.js";
import { baseScenario } from "./convert.js";
import { ExploreError } from "./errors.js";
import { applies, defaultMenu, type MenuEntry, menuBody } from "./menu.js";
import { loadMenu } from "./menu-file.js";
import {
  type Candidate,
  depthOneCandidates,
  depthTwoCandidates,
  experimentScenario,
  type PassedSingle,
  plannedFault,
} from "./plan.js";
import {
  type InjectionPoint,
  type ObservedPoint,
  observedPoints,
  operationCounts,
  pointLabel,
  type SkippedPoint,
  stablePoints,
} from "./points.js";
import type { ExploreProgress } from "./progress.js";
import { writeReplays } from "./replays.js";
import { type Job, type RunSettings, runAll, runEvents } from "./runner.js";
import { MAX_SEED, randomSeed, seededSample } from "./sample.js";
import { faultData, scenarioText } from "./scenario-text.js";

export const DEFAULT_EXPLORE_DIR = ".agentchaos/explore";
export const DEFAULT_BUDGET = 200;
export const DEFAULT_BASELINE_RUNS = 2;
export const MAX_BASELINE_RUNS = 20;

export interface ExploreOptions {
  /** A menu file (relative to the working directory); default: the default menu. */
  readonly menu?: string;
  /** 1 (default): single faults; 2: then ordered pairs of passing singles. */
  readonly depth?: 1 | 2;
  /** Most experiments to run, confirmation runs not counted (default 200). */
  readonly budget?: number;
  /** Runs at once (default: the number of CPUs). */
  readonly jobs?: number;
  /** Baseline runs, each of which must pass (default 2). */
  readonly baselineRuns?: number;
  /** Seed of the sample taken over budget (default: a random one, recorded). */
  readonly seed?: number;
  /** Default `.agentchaos/explore`, relative to the working directory. */
  readonly outputDir?: string;
  /** Default `["junit", "html"]`; explore.json is always written. */
  readonly reporters?: readonly ReporterName[];
  /** Aborting it stops the explore like SIGINT: running experiments are stopped, finished ones kept. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExploreProgress) => void;
}

export interface ExploreSettings extends ExploreOptions {
  /** Absolute; the menu path and the output folder resolve against it. */
  readonly cwd: string;
  readonly forceStop?: AbortSignal;
}

export interface ExploreDone {
  readonly document: ExploreDocument;
  /** Absolute explore folder. */
  readonly folder: string;
  /** Absolute paths: explore.json first, then the reporters' files. */
  readonly written: readonly string[];
  /** 0 nothing failed, 1 a failure or a failing baseline, 2 nothing to explore, 3 baseline setup error, 130 interrupted. */
  readonly exitCode: number;
}

function checkOptions(options: ExploreOptions): void {
  const bad = (message: string): never => {
    throw new ExploreError("EXPLORE_BAD_OPTION", message);
  };
  const whole = (value: number | undefined, min: number, max: number): boolean =>
    value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max);
  if (options.depth !== undefined && options.depth !== 1 && options.depth !== 2) bad("depth must be 1 or 2");
  if (!whole(options.budget, 1, Number.MAX_SAFE_INTEGER)) bad("budget must be a positive integer");
  if (!whole(options.jobs, 1, 9999)) bad("jobs must be a positive integer");
  if (!whole(options.baselineRuns, 1, MAX_BASELINE_RUNS))
    bad(`baseline runs must be an integer from 1 to ${MAX_BASELINE_RUNS}`);
  if (!whole(options.seed, 0, MAX_SEED)) bad(`seed must be an integer from 0 to ${MAX_SEED}`);
}

/** An experiment while it is being run: its plan, its run, its confirmation. */
interface Trial {
  readonly id: string;
  readonly candidate: Candidate;
  readonly scenario: ScenarioV2;
  run: RunRecord | null;
  runFolder: string | null;
  confirmation: RunRecord | null;
}

function pointRecord(point: InjectionPoint, menu: readonly string[]) {
  return {
    id: point.id,
    label: pointLabel(point),
    dependency: point.dependency,
    protocol: point.protocol,
    method: point.method,
    path: point.path,
    k: point.k,
    relayed_events: point.relayedEvents,
    menu,
  };
}

function skippedRecord(point: SkippedPoint) {
  return {
    label: pointLabel(point),
    dependency: point.dependency,
    protocol: point.protocol,
    method: point.method,
    path: point.path,
    k: point.k,
    reason: point.reason,
    seen_in_runs: point.seenInRuns,
  };
}

/** The explore engine: returns the document, its folder, the files written and the exit code. */
export async function explore(scenario: AnyScenario, settings: ExploreSettings): Promise<ExploreDone> {
  checkOptions(settings);
  const base = baseScenario(scenario);
  const unsupported = unsupportedFeature(base);
  if (unsupported !== null) throw new ExploreError("EXPLORE_UNSUPPORTED", unsupported);
  const fileMenu =
    settings.menu === undefined
      ? null
      : await loadMenu(resolve(settings.cwd, settings.menu), { unavailable: unavailableFault });

  const depth = settings.depth ?? 1;
  const budget = settings.budget ?? DEFAULT_BUDGET;
  const jobs = settings.jobs ?? Math.max(1, availableParallelism());
  const baselineRuns = settings.baselineRuns ?? DEFAULT_BASELINE_RUNS;
  const seed = settings.seed ?? randomSeed();
  const reporters = settings.reporters ?? DEFAULT_SUITE_REPORTERS;
  const signal = settings.signal;
  const progress = (event: ExploreProgress): void => {
    try {
      settings.onProgress?.(event);
    } catch {
      // A failing display never stops the explore.
    }
  };

  let folder: string;
  let exploreId: string;
  try {
    const made = await createRunFolder(resolve(settings.cwd, settings.outputDir ?? DEFAULT_EXPLORE_DIR));
    folder = made.runDir;
    exploreId = made.runId;
  } catch (error) {
    if (error instanceof RunFolderError) {
      throw new ExploreError("EXPLORE_OUTPUT_FAILED", error.message, { cause: error });
    }
    throw error;
  }
  const startedAt = new Date().toISOString();
  const scenarioPath = relative(settings.cwd, scenario.sourcePath).split("\\").join("/");
  progress({
    kind: "start",
    folder,
    exploreId,
    scenarioName: base.name,
    scenarioPath,
    seed,
    jobs,
    depth,
    budget,
    baselineRuns,
  });

  const runSettings: RunSettings = {
    folder,
    jobs,
    ...(signal === undefined ? {} : { interrupt: signal }),
    ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
    reporters: reporters.includes("html") ? ["html"] : [],
  };
  const textDir = dirname(base.sourcePath);
  const interrupted = (): boolean => signal?.aborted === true;
  const dependencyOf = (name: string): DependencyV2 =>
    base.dependencies.find((dependency) => dependency.name === name) as DependencyV2;

  // What the document will say; filled in as the explore goes.
  const baseline: RunRecord[] = [];
  let points: InjectionPoint[] = [];
  let skipped: SkippedPoint[] = [];
  let columns: MenuEntry[] = [];
  const notAvailable: UnavailableRecord[] = [];
  const candidates = { depth_1: 0, depth_2: 0 };
  const trials: Trial[] = [];

  const finish = async (
    status: ExploreStatus,
    message: string | null,
    exitCode: number,
  ): Promise<ExploreDone> => {
    const failures = trials.filter((trial) => trial.run?.result === "FAILED" && !isFlaky(trial));
    const replayPaths = await writeReplays(
      folder,
      exploreId,
      failures.map((trial) => ({
        scenario: trial.scenario,
        label: trial.candidate.key,
        experimentId: trial.id,
        observed: `${trial.run?.result} / ${trial.run?.reason_code}${trial.confirmation === null ? "" : " (confirmed by a second run)"}`,
      })),
    );
    const replayOf = new Map(failures.map((trial, index) => [trial, replayPaths[index] ?? null]));
    const experiments = trials.flatMap((trial) =>
      trial.run === null ? [] : [experimentRecord(trial, replayOf.get(trial) ?? null)],
    );
    const document: ExploreDocument = {
      schema_version: 1,
      explore_id: exploreId,
      scenario: { path: scenarioPath, name: base.name, schema_version: scenario.schemaVersion },
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      status,
      message,
      settings: { depth, budget, jobs, baseline_runs: baselineRuns, seed, menu: settings.menu ?? "default" },
      baseline,
      points: points.map((point) =>
        pointRecord(
          point,
          columns
            .filter((entry) => applies(entry, point, dependencyOf(point.dependency)))
            .map((entry) => entry.id),
        ),
      ),
      skipped_points: skipped.map(skippedRecord),
      menu: columns.map((entry) => ({ id: entry.id, label: entry.label, fault: menuBody(entry.fault) })),
      not_available: notAvailable,
      candidates,
      experiments,
      summary: summarize(experiments),
    };
    const written = [await writeFileAtomically(folder, EXPLORE_FILE_NAME, serializeExplore(document))];
    written.push(...(await writeExploreReporters(folder, document, reporters)));
    return { document, folder, written, exitCode };
  };
  const stopInterrupted = (): Promise<ExploreDone> =>
    finish("interrupted", "interrupted: the experiments that finished are kept", 130);

  // 1. Baseline.
  const baselineFolders: (string | null)[] = [];
  const baselineOrder: number[] = [];
  progress({ kind: "phase", phase: "baseline", total: baselineRuns });
  await runAll(
    Array.from({ length: baselineRuns }, (_, index) => index),
    (index): Job => ({
      scenario: base,
      text: scenarioText(base, textDir, [
        `Explore ${exploreId}: baseline run ${index + 1} of ${baselineRuns}`,
      ]),
    }),
    { ...runSettings, jobs: Math.min(jobs, baselineRuns) },
    (index, finished) => {
      baselineOrder.push(index);
      baselineFolders[index] = finished.runFolder;
      baseline[index] = finished.run;
      progress({
        kind: "baseline",
        index,
        run: finished.run,
        done: baselineOrder.length,
        total: baselineRuns,
      });
    },
  );
  if (interrupted()) {
    compact(baseline);
    return stopInterrupted();
  }
  const failedIndex = baseline.findIndex((run) => run.result === "FAILED");
  const failedRun = baseline[failedIndex];
  if (failedRun !== undefined) {
    const message = `baseline run ${failedIndex + 1} of ${baselineRuns} ended ${failedRun.result} / ${failedRun.reason_code}: explore needs a baseline that passes`;
    return finish("baseline_failed", message, failedRun.exit_code === 3 ? 3 : 1);
  }

  // 2. Injection points.
  const observed: ObservedPoint[][] = [];
  for (const runFolder of baselineFolders) {
    const events = runFolder === null ? null : await runEvents(runFolder);
    if (events === null) {
      return finish("baseline_failed", "the baseline's events cannot be read back", 3);
    }
    observed.push(observedPoints(events));
  }
  ({ points, skipped } = stablePoints(observed));
  if (points.length === 0) {
    const message =
      skipped.length === 0
        ? "the baseline made no operations: there is nothing to inject faults into"
        : `no operation was observed in every baseline run (${skipped.length} unstable or untargetable): there is nothing to inject faults into`;
    return finish("no_operations", message, 2);
  }
  const fitsSome = (entry: MenuEntry): boolean =>
    points.some((point) => applies(entry, point, dependencyOf(point.dependency)));

  // 3. The menu's columns.
  if (fileMenu === null) {
    for (const entry of defaultMenu()) {
      if (!fitsSome(entry)) continue;
      const why = unavailableFault(entry.fault);
      if (why === null) columns.push(entry);
      else notAvailable.push({ label: entry.label, fault: menuBody(entry.fault), reason: why });
    }
  } else {
    const unfit = fileMenu.filter((entry) => !fitsSome(entry));
    columns = fileMenu;
    if (unfit.length > 0) {
      const names = unfit.map((entry) => `[${Number(entry.id.slice(1)) - 1}] ${entry.label}`).join(", ");
      const message = `menu ${unfit.length === 1 ? "entry" : "entries"} ${names} ${unfit.length === 1 ? "fits" : "fit"} none of the ${points.length} injection points`;
      return finish("menu_fits_no_point", message, 2);
    }
  }
  columns = columns.map((entry, index) => ({ ...entry, id: `M${index + 1}` }));

  // 4. Depth 1.
  const singles = depthOneCandidates(points, columns, dependencyOf);
  candidates.depth_1 = singles.length;
  const chosen = seededSample(singles, budget, seed, (candidate) => candidate.key);
  const plan = (list: readonly Candidate[]): Trial[] =>
    list.map((candidate) => {
      const trial: Trial = {
        id: `E${trials.length + 1}`,
        candidate,
        scenario: experimentScenario(base, candidate),
        run: null,
        runFolder: null,
        confirmation: null,
      };
      trials.push(trial);
      return trial;
    });
  const jobOf = (trial: Trial): Job => ({
    scenario: trial.scenario,
    text: scenarioText(trial.scenario, textDir, [
      `Explore ${exploreId}, experiment ${trial.id}: ${trial.candidate.key}`,
    ]),
  });
  progress({
    kind: "plan",
    points,
    skipped,
    menu: columns,
    notAvailable,
    depth: 1,
    candidates: singles.length,
    planned: chosen.length,
  });
  const runPhase = async (list: Trial[], phase: "depth_1" | "depth_2"): Promise<void> => {
    const started = Date.now();
    let done = 0;
    progress({ kind: "phase", phase, total: list.length });
    await runAll(list, jobOf, runSettings, (trial, finished) => {
      trial.run = finished.run;
      trial.runFolder = finished.runFolder;
      done += 1;
      const eta =
        done === list.length ? 0 : Math.round(((Date.now() - started) / done) * (list.length - done));
      progress({
        kind: "experiment",
        phase,
        trial: experimentRecord(trial, null),
        done,
        total: list.length,
        etaMs: eta,
      });
    });
  };
  const confirm = async (list: Trial[]): Promise<void> => {
    const failed = list.filter((trial) => trial.run?.result === "FAILED");
    if (failed.length === 0) return;
    let done = 0;
    progress({ kind: "phase", phase: "confirm", total: failed.length });
    await runAll(failed, jobOf, runSettings, (trial, finished) => {
      trial.confirmation = finished.run;
      done += 1;
      progress({ kind: "confirmation", trial: experimentRecord(trial, null), done, total: failed.length });
    });
  };
  const firstTrials = plan(chosen);
  await runPhase(firstTrials, "depth_1");
  if (interrupted()) return stopInterrupted();
  await confirm(firstTrials);
  if (interrupted()) return stopInterrupted();

  // 5. Depth 2.
  if (depth === 2) {
    const baselineCounts = operationCounts(observed[0] ?? []);
    const passed: PassedSingle[] = [];
    for (const trial of firstTrials) {
      if (trial.run === null || trial.run.result === "FAILED" || trial.runFolder === null) continue;
      const events = await runEvents(trial.runFolder);
      if (events !== null)
        passed.push({ candidate: trial.candidate, counts: operationCounts(observedPoints(events)) });
    }
    const pairs = depthTwoCandidates(passed, baselineCounts);
    candidates.depth_2 = pairs.length;
    const remaining = Math.max(0, budget - firstTrials.length);
    const chosenPairs = seededSample(pairs, remaining, seed, (candidate) => candidate.key);
    progress({
      kind: "plan",
      points,
      skipped,
      menu: columns,
      notAvailable,
      depth: 2,
      candidates: pairs.length,
      planned: chosenPairs.length,
    });
    const pairTrials = plan(chosenPairs);
    await runPhase(pairTrials, "depth_2");
    if (interrupted()) return stopInterrupted();
    await confirm(pairTrials);
    if (interrupted()) return stopInterrupted();
  }

  const anyFailed = trials.some((trial) => trial.run?.result === "FAILED" && !isFlaky(trial));
  return finish("completed", null, anyFailed ? 1 : 0);
}

/** Drops the holes a partly finished baseline leaves (runs are kept in their order). */
function compact(runs: RunRecord[]): void {
  const kept = runs.filter((run) => run !== undefined);
  runs.length = 0;
  runs.push(...kept);
}

function isFlaky(trial: Trial): boolean {
  return (
    trial.run?.result === "FAILED" && trial.confirmation !== null && trial.confirmation.result !== "FAILED"
  );
}

function experimentRecord(trial: Trial, replay: string | null): ExperimentRecord {
  const run = trial.run as RunRecord;
  return {
    id: trial.id,
    depth: trial.candidate.depth,
    label: trial.candidate.key,
    faults: trial.candidate.faults.map((planned) => ({
      point: planned.point.id,
      menu: planned.entry.id,
      fault: faultData(plannedFault(planned)),
    })),
    result: run.result,
    reason_code: run.reason_code,
    exit_code: run.exit_code,
    duration_ms: run.duration_ms,
    run_folder: run.run_folder,
    flaky: isFlaky(trial),
    confirmation: trial.confirmation,
    replay,
  };
}
