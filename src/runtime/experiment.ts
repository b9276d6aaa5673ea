/**
 * One experiment as `agentchaos run`, `suite`, `explore` and the library's `runExperiment` carry
 * it out (the CLI command is a thin shell over `experiment` below), plus the optional reporter files.
 */
import type { AnyAgentChaosEvent, RunResult } from "../events/types.js";
import type { Report } from "../report/types.js";
import type { ReporterName } from "../reporters/names.js";
import { ScenarioError } from "../scenario/errors.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { LiveOutput } from "../terminal/live-output.js";
import { failedRunExcerpts } from "./failed-run-excerpts.js";
import { type ExperimentOptions, orchestrateRun as runOrchestrated } from "./orchestrator.js";

export const DEFAULT_RUNS_DIR = ".agentchaos/runs";

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

/**
 * How one experiment is carried out; shared by the library, `run` and `suite`: the orchestrator's
 * options (an absolute `outputDir`; workload lines go to `output`) with the printing side and the
 * reporter files.
 */
export interface ExperimentSettings extends Omit<ExperimentOptions, "onWorkloadLine"> {
  readonly output?: LiveOutput;
  readonly reporters?: readonly ReporterName[];
}

export interface ExperimentDone extends ExperimentResult {
  readonly reportPath: string;
  /** Whether the run was interrupted (its exit code is then 130). */
  readonly interrupted: boolean;
  /** Absolute paths of the reporter files written. */
  readonly written: readonly string[];
}

/** Runs a loaded scenario: run folder, processes, proxy, analysis, report, reporter files, terminal output. */
export async function experiment(
  scenario: AnyScenario,
  settings: ExperimentSettings,
): Promise<ExperimentDone> {
  // Only a scenario with faults can name one this build cannot run (its check loads the fault registries).
  const unsupported =
    scenario.faults.length > 0 ? (await import("./support.js")).unsupportedFeature(scenario) : null;
  if (unsupported !== null) throw new ScenarioError("SCENARIO_UNSUPPORTED", unsupported);
  const { output, onEvent, reporters = [], ...options } = settings;
  output?.header();
  const outcome = await runOrchestrated(scenario, {
    ...options,
    ...(output === undefined && onEvent === undefined
      ? {}
      : {
          onEvent: (event: AnyAgentChaosEvent) => {
            output?.onEvent(event);
            onEvent?.(event);
          },
        }),
    ...(output === undefined ? {} : { onWorkloadLine: output.onWorkloadLine }),
  });
  output?.summary(
    outcome.report,
    outcome.reportPath,
    await failedRunExcerpts(outcome.report, outcome.runDir),
  );
  const written =
    reporters.length === 0
      ? []
      : await (await import("../reporters/run-files.js")).writeRunReporters(outcome.runDir, reporters, {
          report: outcome.report,
          path: outcome.reportPath,
        });
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
