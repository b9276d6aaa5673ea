/**
 * The explore engine (docs/explore.md): baseline runs, injection points, the menu, depth-1 and
 * depth-2 experiments within the budget, confirmation runs (or trials, phases.ts), then the
 * output folder — `explore.json`, `replays/`, every run folder and the reporters' files. The
 * `explore` command and `exploreScenario` are thin shells over `explore()`.
 */

import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import {
  EXPLORE_FILE_NAME,
  type ExploreDocument,
  type ExploreStatus,
  type RunRecord,
  serializeExplore,
  summarize,
  type UnavailableRecord,
} from "../report/explore-document.js";
import { writeExploreReporters } from "../reporters/explore-files.js";
import { DEFAULT_SUITE_REPORTERS } from "../reporters/names.js";
import { createFolderOr } from "../runtime/run-folder.js";
import { unsupportedFeature } from "../runtime/support.js";
import { fileSchemaOf } from "../scenario/legacy/upgrade.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { Dependency } from "../scenario/types.js";
import { slashRelative } from "../support/slash-path.js";
import { writeFileAtomically } from "../support/write-file.js";
import { trialSettings } from "../trials/options.js";
import { unavailableFault } from "./availability.js";
import { baseScenario } from "./convert.js";
import { ExploreError } from "./errors.js";
import {
  dependencyStarts,
  EXTENDED_MENU,
  earliestStarts,
  extendedEntries,
  markUnfit,
} from "./extended-menu.js";
import { applies, defaultMenu, type MenuEntry, menuBody } from "./menu.js";
import { loadMenu } from "./menu-file.js";
import {
  checkOptions,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_BUDGET,
  DEFAULT_EXPLORE_DIR,
  type ExploreDone,
  type ExploreOptions,
  type ExploreSettings,
} from "./options.js";
import { type PhaseContext, runPhase } from "./phases.js";
import {
  type Candidate,
  depthOneCandidates,
  depthTwoCandidates,
  experimentScenario,
  type PassedSingle,
} from "./plan.js";
import {
  type InjectionPoint,
  type ObservedPoint,
  observedPoints,
  operationCounts,
  type SkippedPoint,
  stablePoints,
} from "./points.js";
import type { ExploreProgress } from "./progress.js";
import {
  compact,
  experimentRecord,
  isFailure,
  isFlaky,
  observedText,
  type PlannedExperiment,
  pointRecord,
  skippedRecord,
} from "./records.js";
import { writeReplays } from "./replays.js";
import { type Job, type RunSettings, runAll, runEvents } from "./runner.js";
import { randomSeed, seededSample } from "./sample.js";
import { scenarioText } from "./scenario-text.js";

export type { ExploreDone, ExploreOptions, ExploreSettings };

/** The explore engine: returns the document, its folder, the files written and the exit code. */
export async function explore(scenario: AnyScenario, settings: ExploreSettings): Promise<ExploreDone> {
  checkOptions(settings);
  const base = baseScenario(scenario);
  const unsupported = unsupportedFeature(base);
  if (unsupported !== null) throw new ExploreError("EXPLORE_UNSUPPORTED", unsupported);
  const fileMenu =
    settings.menu === undefined || settings.menu === EXTENDED_MENU
      ? null
      : await loadMenu(resolve(settings.cwd, settings.menu), { unavailable: unavailableFault });

  const depth = settings.depth ?? 1;
  const budget = settings.budget ?? DEFAULT_BUDGET;
  const jobs = settings.jobs ?? Math.max(1, availableParallelism());
  const baselineRuns = settings.baselineRuns ?? DEFAULT_BASELINE_RUNS;
  const seed = settings.seed ?? randomSeed();
  const reporters = settings.reporters ?? DEFAULT_SUITE_REPORTERS;
  const { trials, minPassRate } = trialSettings(settings);
  const signal = settings.signal;
  const progress = (event: ExploreProgress): void => {
    try {
      settings.onProgress?.(event);
    } catch {
      // A failing display never stops the explore.
    }
  };

  const { runDir: folder, runId: exploreId } = await createFolderOr(
    resolve(settings.cwd, settings.outputDir ?? DEFAULT_EXPLORE_DIR),
    (message, cause) => new ExploreError("EXPLORE_OUTPUT_FAILED", message, { cause }),
  );
  const startedAt = new Date().toISOString();
  const scenarioPath = slashRelative(settings.cwd, scenario.sourcePath);
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
    trials,
    minPassRate,
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
  const dependencyOf = (name: string): Dependency =>
    base.dependencies.find((dependency) => dependency.name === name) as Dependency;

  // What the document will say; filled in as the explore goes.
  const baseline: RunRecord[] = [];
  let points: InjectionPoint[] = [];
  let skipped: SkippedPoint[] = [];
  let columns: MenuEntry[] = [];
  const notAvailable: UnavailableRecord[] = [];
  const candidates = { depth_1: 0, depth_2: 0 };
  const planned: PlannedExperiment[] = [];

  /** `exitCode` null: 1 when an experiment failed, else 0. */
  const finish = async (
    status: ExploreStatus,
    message: string | null,
    exitCode: number | null,
  ): Promise<ExploreDone> => {
    const counted = planned.filter((each) => each.notApplicable !== true);
    const notApplicable = new Set(
      planned.flatMap((each) =>
        each.notApplicable === true
          ? each.candidate.faults.map((fault) => `${fault.point.id}\u0000${fault.entry.id}`)
          : [],
      ),
    );
    const failures = planned.filter((each) => isFailure(each) && !isFlaky(each));
    const replayPaths = await writeReplays(
      folder,
      exploreId,
      failures.map((each) => ({
        scenario: each.scenario,
        label: each.candidate.key,
        experimentId: each.id,
        observed: observedText(each),
      })),
    );
    const replayOf = new Map(failures.map((each, index) => [each, replayPaths[index] ?? null]));
    const experiments = counted.flatMap((each) =>
      each.run === null ? [] : [experimentRecord(each, replayOf.get(each) ?? null)],
    );
    const document: ExploreDocument = {
      schema_version: trials > 1 ? 2 : 1,
      explore_id: exploreId,
      scenario: { path: scenarioPath, name: base.name, schema_version: fileSchemaOf(scenario) },
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      status,
      message,
      settings: {
        depth,
        budget,
        jobs,
        baseline_runs: baselineRuns,
        seed,
        menu: settings.menu ?? "default",
        ...(trials > 1 ? { trials, min_pass_rate: minPassRate } : {}),
      },
      baseline,
      points: points.map((point) =>
        pointRecord(
          point,
          columns
            .filter((entry) => applies(entry, point, dependencyOf(point.dependency)))
            .filter((entry) => !notApplicable.has(`${point.id}\u0000${entry.id}`))
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
    return { document, folder, written, exitCode: exitCode ?? (failures.length > 0 ? 1 : 0) };
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
  const starts: Map<string, number>[] = [];
  for (const runFolder of baselineFolders) {
    const events = runFolder === null ? null : await runEvents(runFolder);
    if (events === null) {
      return finish("baseline_failed", "the baseline's events cannot be read back", 3);
    }
    observed.push(observedPoints(events));
    starts.push(dependencyStarts(events));
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
    const context = { dependencies: base.dependencies, points, starts: earliestStarts(starts) };
    const extended = settings.menu === EXTENDED_MENU ? extendedEntries(context) : [];
    for (const entry of [...defaultMenu(), ...extended]) {
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

  // 4. Depth 1, then 5. depth 2: a seeded sample of the candidates within the budget left.
  const phaseContext: PhaseContext = {
    runSettings,
    jobOf: (experiment) => ({
      scenario: experiment.scenario,
      text: scenarioText(experiment.scenario, textDir, [
        `Explore ${exploreId}, experiment ${experiment.id}: ${experiment.candidate.key}`,
      ]),
    }),
    progress,
    trials,
    minPassRate,
    scenario: { path: scenarioPath, name: base.name },
    now: Date.now,
    settle: markUnfit,
  };
  const runDepth = async (phase: 1 | 2, list: readonly Candidate[]): Promise<PlannedExperiment[]> => {
    candidates[`depth_${phase}`] = list.length;
    const chosen = seededSample(list, budget - planned.length, seed, (candidate) => candidate.key);
    progress({
      kind: "plan",
      points,
      skipped,
      menu: columns,
      notAvailable,
      depth: phase,
      candidates: list.length,
      planned: chosen.length,
    });
    const experiments = chosen.map(
      (candidate, index): PlannedExperiment => ({
        id: `E${planned.length + index + 1}`,
        candidate,
        scenario: experimentScenario(base, candidate),
        run: null,
        runFolder: null,
        confirmation: null,
        trials: null,
      }),
    );
    planned.push(...experiments);
    await runPhase(experiments, `depth_${phase}`, phaseContext);
    return experiments;
  };
  const firstTrials = await runDepth(1, depthOneCandidates(points, columns, dependencyOf));
  if (interrupted()) return stopInterrupted();

  if (depth === 2) {
    const baselineCounts = operationCounts(observed[0] ?? []);
    const passed: PassedSingle[] = [];
    for (const trial of firstTrials) {
      if (trial.run === null || trial.run.result === "FAILED" || trial.runFolder === null) continue;
      const events = await runEvents(trial.runFolder);
      if (events !== null)
        passed.push({ candidate: trial.candidate, counts: operationCounts(observedPoints(events)) });
    }
    await runDepth(2, depthTwoCandidates(passed, baselineCounts));
    if (interrupted()) return stopInterrupted();
  }
  return finish("completed", null, null);
}
