/**
 * `runSuite` (docs/suites.md): collect, load, filter, shard, run in parallel with fixed ports kept
 * apart, then write `suite.json` and the reporters' files into `<outputDir>/<suite-id>/`.
 * With trials (N > 1) each scenario runs N times (trial-entries.ts). The `suite` command is a
 * thin shell over `suite()` below.
 */

import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import {
  compareByteOrder,
  SUITE_FILE_NAME,
  type SuiteDocument,
  type SuiteEntry,
  type SuiteShard,
  serializeSuite,
  suiteVersion,
} from "../report/suite-document.js";
import { SuiteError } from "../report/suite-errors.js";
import type { TrialRun } from "../report/trials.js";
import { DEFAULT_SUITE_REPORTERS, type ReporterName } from "../reporters/names.js";
import { writeSuiteReporters } from "../reporters/suite-files.js";
import { finishedRun, type RunManySettings } from "../runtime/finished-run.js";
import { createFolderOr } from "../runtime/run-folder.js";
import { runScheduled } from "../runtime/run-scheduler.js";
import { writeFileAtomically } from "../support/write-file.js";
import { trialSettings } from "../trials/options.js";
import { collectScenarioFiles, skippedSummary } from "./collect.js";
import { type Plan, preparePlan } from "./prepare.js";
import { shardSlice } from "./shard.js";
import { runTrialPlans } from "./trial-entries.js";

export const DEFAULT_SUITES_DIR = ".agentchaos/suites";

export interface RunSuiteOptions {
  /** Scenarios run at once (default: the number of CPUs, at least 1). */
  readonly jobs?: number;
  /** Run only this contiguous block of the sorted list. */
  readonly shard?: SuiteShard | null;
  /** Default `.agentchaos/suites`, relative to the process cwd. */
  readonly outputDir?: string;
  /** Default `["junit", "html"]`; suite.json is always written. */
  readonly reporters?: readonly ReporterName[];
  /** Aborting it stops the suite like SIGINT: running experiments are stopped, finished ones reported. */
  readonly signal?: AbortSignal;
  /** Keep only scenarios whose name or path contains this text. */
  readonly grep?: string;
  /** Leave out scenarios whose name or path contains this text. */
  readonly grepInvert?: string;
  /** Globs of paths (relative to the current directory) to leave out; a glob without `/` also matches base names. */
  readonly exclude?: readonly string[];
  /** Start no new scenario after the first failure. */
  readonly failFast?: boolean;
  /** Called as each scenario finishes, in completion order. */
  readonly onEntry?: (entry: SuiteEntry, progress: { readonly done: number; readonly total: number }) => void;
  /** Runs of each scenario, 1 to 100 (default 1: one run, no trials). */
  readonly trials?: number;
  /** With trials: the least pass rate, 0 to 1, with which a scenario passes (default 1). */
  readonly minPassRate?: number;
  /** With trials: called as each trial finishes, in completion order. */
  readonly onTrial?: (trial: {
    readonly path: string;
    readonly name: string;
    readonly run: TrialRun;
    readonly total: number;
  }) => void;
}

export interface SuiteSettings extends RunSuiteOptions {
  /** Absolute; scenario paths and the default output folder resolve against it. */
  readonly cwd: string;
  readonly forceStop?: AbortSignal;
  /** Called once the plans are known and the suite folder exists, before anything runs. */
  readonly onStart?: (info: {
    readonly total: number;
    readonly folder: string;
    readonly jobs: number;
    /** One line saying which files collection left out and why, or null. */
    readonly skipped: string | null;
  }) => void;
}

export interface SuiteDone {
  readonly document: SuiteDocument;
  /** Absolute suite folder. */
  readonly folder: string;
  /** Absolute paths written: suite.json first, then the reporters' files. */
  readonly written: readonly string[];
  /** Scenarios of the shard that were not started (fail-fast or interruption). */
  readonly notStarted: number;
  /** 0 all passed or recovered, 1 any failed, 130 interrupted. */
  readonly exitCode: number;
}

function selected(plans: readonly Plan[], grep: string | undefined, grepInvert: string | undefined): Plan[] {
  const matches = (plan: Plan, text: string): boolean =>
    plan.name.includes(text) || plan.file.path.includes(text);
  return plans.filter(
    (plan) =>
      (grep === undefined || matches(plan, grep)) && (grepInvert === undefined || !matches(plan, grepInvert)),
  );
}

function noMatchMessage(grep: string | undefined, grepInvert: string | undefined): string {
  const filters = [
    ...(grep === undefined ? [] : [`--grep '${grep}'`]),
    ...(grepInvert === undefined ? [] : [`--grep-invert '${grepInvert}'`]),
  ];
  return `no scenario matches ${filters.join(" and ")}`;
}

/** The suite engine: returns the document, its folder and the files written. */
export async function suite(paths: readonly string[], settings: SuiteSettings): Promise<SuiteDone> {
  const badOption = (message: string): SuiteError => new SuiteError("SUITE_BAD_OPTION", message);
  const { trials: trialCount, minPassRate } = trialSettings(settings, badOption);
  const { jobs: askedJobs } = settings;
  if (askedJobs !== undefined && !(Number.isSafeInteger(askedJobs) && askedJobs >= 1))
    throw badOption(`jobs must be a positive integer, got ${String(askedJobs)}`);
  const collected = await collectScenarioFiles(paths, settings.cwd, settings.exclude ?? []);
  const skipped = skippedSummary(collected);
  if (collected.files.length === 0) {
    const why = skipped === null ? "" : ` (${skipped.charAt(0).toLowerCase()}${skipped.slice(1)})`;
    throw new SuiteError("SUITE_NO_SCENARIOS", `no scenario found in ${paths.join(", ")}${why}`);
  }
  const plans = selected(
    await Promise.all(collected.files.map(preparePlan)),
    settings.grep,
    settings.grepInvert,
  );
  if (plans.length === 0)
    throw new SuiteError("SUITE_NO_MATCH", noMatchMessage(settings.grep, settings.grepInvert));
  const shard = settings.shard ?? null;
  const mine = shard === null ? plans : shardSlice(plans, shard);
  const jobs = askedJobs ?? Math.max(1, availableParallelism());
  const reporters = settings.reporters ?? DEFAULT_SUITE_REPORTERS;

  const { runDir: folder, runId: suiteId } = await createFolderOr(
    resolve(settings.cwd, settings.outputDir ?? DEFAULT_SUITES_DIR),
    (message, cause) => new SuiteError("SUITE_OUTPUT_FAILED", message, { cause }),
  );
  settings.onStart?.({ total: mine.length, folder, jobs, skipped });

  const startedAt = new Date().toISOString();
  const entries: SuiteEntry[] = [];
  const signal = settings.signal;
  let failed = false;
  let started = 0;
  const finish = (entry: SuiteEntry): void => {
    entries.push(entry);
    if (entry.result === "FAILED") failed = true;
    settings.onEntry?.(entry, { done: entries.length, total: mine.length });
  };
  const many: RunManySettings = {
    jobs,
    ...(signal === undefined ? {} : { interrupt: signal }),
    ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
    reporters: reporters.includes("html") ? ["html"] : [],
  };

  const invalid = (plan: Plan & { kind: "invalid" }): SuiteEntry => ({
    path: plan.file.path,
    name: plan.name,
    result: "FAILED",
    reason_code: "SCENARIO_INVALID",
    exit_code: 2,
    duration_ms: 0,
    run_folder: null,
    problems: plan.problems,
  });
  const stopped = (): boolean => signal?.aborted === true || (settings.failFast === true && failed);

  if (trialCount > 1) {
    for (const plan of mine) {
      if (plan.kind === "invalid" && !stopped()) {
        started += 1;
        finish(invalid(plan));
      }
    }
    await runTrialPlans(
      mine.filter((plan) => plan.kind === "runnable"),
      {
        ...many,
        folder,
        count: trialCount,
        minPassRate,
        stopped,
        onStarted: () => {
          started += 1;
        },
        onTrial: (plan, run) =>
          settings.onTrial?.({ path: plan.file.path, name: plan.name, run, total: trialCount }),
        onEntry: finish,
      },
    );
  } else {
    await runScheduled(
      mine.map((plan) => ({ plan, ports: plan.kind === "runnable" ? plan.ports : [] })),
      {
        jobs,
        stopped,
        run: async ({ plan }) => {
          started += 1;
          if (plan.kind === "invalid") {
            finish(invalid(plan));
            return;
          }
          const finished = await finishedRun(plan.scenario, folder, many);
          if (finished !== null) finish({ path: plan.file.path, name: plan.name, ...finished.run });
        },
      },
    );
  }

  const interrupted = signal?.aborted === true;
  const document: SuiteDocument = {
    schema_version: suiteVersion(entries),
    suite_id: suiteId,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    interrupted,
    shard,
    entries: entries.sort((a, b) => compareByteOrder(a.path, b.path)),
  };
  const written = [await writeSuiteFile(folder, document)];
  written.push(...(await writeSuiteReporters(folder, document, reporters)));
  return {
    document,
    folder,
    written,
    notStarted: mine.length - started,
    exitCode: interrupted ? 130 : entries.some((entry) => entry.result === "FAILED") ? 1 : 0,
  };
}

async function writeSuiteFile(folder: string, document: SuiteDocument): Promise<string> {
  return writeFileAtomically(folder, SUITE_FILE_NAME, serializeSuite(document));
}

/**
 * Runs a suite of scenario files and folders, exactly as `agentchaos suite` does, printing
 * nothing. Returns the `suite.json` document. Throws a `SuiteError` for bad input (no scenario
 * found, a path that does not exist) or an output folder that cannot be created.
 */
export async function runSuite(
  paths: readonly string[],
  options: RunSuiteOptions = {},
): Promise<SuiteDocument> {
  return (await suite(paths, { ...options, cwd: process.cwd() })).document;
}
