/**
 * The library's `runExperiment`: one experiment exactly as `agentchaos run` performs it (the CLI
 * command is a thin shell over `experiment` below), plus the optional reporter files.
 */
import { resolve } from "node:path";
import type { RunResult } from "../events/types.js";
import type { AnyAgentChaosEvent } from "../events/types-v2.js";
import { failureExcerpts, type LogExcerpt } from "../report/failure-excerpts.js";
import type { Report } from "../report/types.js";
import type { ReporterName } from "../reporters/names.js";
import { writeRunReporters } from "../reporters/run-files.js";
import { runExperiment as runOrchestrated } from "../runtime/orchestrator.js";
import { unsupportedFeature } from "../runtime/support.js";
import { ScenarioError } from "../scenario/errors.js";
import { loadScenario } from "../scenario/load.js";
import type { AnyScenario } from "../scenario/parse.js";
import { type LiveOutput, liveOutput } from "./live-output.js";

export const DEFAULT_RUNS_DIR = ".agentchaos/runs";

export interface RunExperimentOptions {
  /** Where the run folder is created, with parents (default `.agentchaos/runs`, relative to the process cwd). */
  readonly outputDir?: string;
  /** Aborting it stops the experiment like SIGINT: everything is stopped, the run folder completed, exit code 130. */
  readonly signal?: AbortSignal;
  /** Called with each event as it is recorded. */
  readonly onEvent?: (event: AnyAgentChaosEvent) => void;
  /** `false` prints what `agentchaos run` prints to the process's stdout; by default nothing is printed. */
  readonly quiet?: boolean;
  /** Reporter files written into the run folder (`html` → report.html, `junit` → junit.xml, `ctrf` → ctrf.json). */
  readonly reporters?: readonly ReporterName[];
}

export interface ExperimentResult {
  readonly result: RunResult;
  readonly reasonCode: string;
  /** The exit code `agentchaos run` would exit with: 0, 1, 3 or 130. */
  readonly exitCode: number;
  /** The report as written to `report.json`. */
  readonly report: Report;
  /** Absolute path of the run folder. */
  readonly runFolder: string;
}

/** How one experiment is carried out; shared by the library, `run` and `suite`. */
export interface ExperimentSettings {
  /** Absolute output folder. */
  readonly outputDir: string;
  readonly interrupt?: AbortSignal;
  readonly forceStop?: AbortSignal;
  readonly onEvent?: (event: AnyAgentChaosEvent) => void;
  readonly output?: LiveOutput;
  readonly reporters?: readonly ReporterName[];
  /** The run folder's `scenario.yaml` text when the scenario was built in memory (explore). */
  readonly scenarioText?: string;
}

export interface ExperimentDone extends ExperimentResult {
  readonly reportPath: string;
  /** Whether the run was interrupted (its exit code is then 130). */
  readonly interrupted: boolean;
  /** Absolute paths of the reporter files written. */
  readonly written: readonly string[];
}

/** The log lines a failed schema-2 run quotes (masked), else none. */
async function failedRunExcerpts(report: Report, runDir: string): Promise<LogExcerpt[]> {
  if (report.schema_version !== 4) return [];
  return failureExcerpts(runDir, {
    result: report.result,
    reasonCode: report.reason_code,
    diagnostics: report.diagnostics,
    dependencies: report.dependencies.map((dependency) => dependency.name),
  });
}

/** Runs a loaded scenario: run folder, processes, proxy, analysis, report, reporter files, terminal output. */
export async function experiment(
  scenario: AnyScenario,
  settings: ExperimentSettings,
): Promise<ExperimentDone> {
  const unsupported = scenario.schemaVersion === 2 ? unsupportedFeature(scenario) : null;
  if (unsupported !== null) throw new ScenarioError("SCENARIO_UNSUPPORTED", unsupported);
  const output = settings.output;
  output?.header();
  const onEvent = settings.onEvent;
  const outcome = await runOrchestrated(scenario, {
    outputDir: settings.outputDir,
    ...(settings.interrupt === undefined ? {} : { interrupt: settings.interrupt }),
    ...(settings.forceStop === undefined ? {} : { forceStop: settings.forceStop }),
    ...(output === undefined && onEvent === undefined
      ? {}
      : {
          onEvent: (event: AnyAgentChaosEvent) => {
            output?.onEvent(event);
            onEvent?.(event);
          },
        }),
    ...(output === undefined ? {} : { onWorkloadLine: output.onWorkloadLine }),
    ...(settings.scenarioText === undefined ? {} : { scenarioText: settings.scenarioText }),
  });
  output?.summary(
    outcome.report,
    outcome.reportPath,
    await failedRunExcerpts(outcome.report, outcome.runDir),
  );
  const written = await writeRunReporters(outcome.runDir, settings.reporters ?? []);
  return {
    result: outcome.report.result,
    reasonCode: outcome.report.reason_code,
    exitCode: outcome.exitCode,
    report: outcome.report,
    runFolder: outcome.runDir,
    reportPath: outcome.reportPath,
    interrupted: outcome.interrupted,
    written,
  };
}

/**
 * Runs one experiment, exactly as `agentchaos run` does. `scenario` is a scenario file's path
 * (relative to the process cwd) or a scenario returned by `loadScenario`. Throws a
 * `ScenarioError` for an invalid scenario (nothing is started or written) and a
 * `RunFolderError` when no run folder can be made.
 */
export async function runExperiment(
  scenario: string | AnyScenario,
  options: RunExperimentOptions = {},
): Promise<ExperimentResult> {
  const loaded = typeof scenario === "string" ? await loadScenario(scenario) : scenario;
  const done = await experiment(loaded, {
    outputDir: resolve(options.outputDir ?? DEFAULT_RUNS_DIR),
    ...(options.signal === undefined ? {} : { interrupt: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.quiet === false
      ? { output: liveOutput(loaded, { stream: process.stdout, env: process.env }) }
      : {}),
    ...(options.reporters === undefined ? {} : { reporters: options.reporters }),
  });
  return {
    result: done.result,
    reasonCode: done.reasonCode,
    exitCode: done.exitCode,
    report: done.report,
    runFolder: done.runFolder,
  };
}
