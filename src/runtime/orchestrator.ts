import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Analysis } from "../analysis/types.js";
import type { AnalysisV2 } from "../analysis/v2/types.js";
import { Recorder } from "../events/recorder.js";
import type { AgentChaosEvent } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import type { Report } from "../report/types.js";
import type { ReportV4 } from "../report/types-v4.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";
import { exitCodeFor } from "./exit-code.js";
import { createRunFolder } from "./run-folder.js";
import { loadRunModules, type RunModules } from "./run-modules.js";
import { runSteps, type StepContext } from "./steps.js";
import { runStepsV2 } from "./steps-v2.js";

export interface ExperimentOptions {
  /** Where the run folder is created (with parents); relative paths resolve against the process cwd. */
  readonly outputDir: string;
  /** Interruption (SIGINT/SIGTERM): stop everything, complete the run folder, exit code 130. */
  readonly interrupt?: AbortSignal;
  /** A second interruption: skip grace periods. */
  readonly forceStop?: AbortSignal;
  /** Called synchronously after each event is recorded (live terminal lines). */
  readonly onEvent?: (event: AgentChaosEvent | AgentChaosEventV2) => void;
  /** Each complete line of workload output. */
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
  /** The run folder's `scenario.yaml` text, for a scenario built in memory (default: a copy of its source file). */
  readonly scenarioText?: string;
}

export interface ExperimentOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly reportPath: string;
  /** Schema 2 or 3 for a schema-1 scenario, schema 4 for a schema-2 scenario. */
  readonly report: Report | ReportV4;
  readonly analysis: Analysis | AnalysisV2;
  readonly interrupted: boolean;
  readonly exitCode: number;
}

/** The verdict of a finished run and its report, for one scenario schema. */
interface Judgement {
  readonly result: Analysis["result"];
  readonly reasonCode: string;
  readonly analysis: Analysis | AnalysisV2;
  readonly report: Report | ReportV4;
}

/**
 * Runs one experiment end to end (run.md "Lifecycle of run"): run folder and artifacts,
 * managed dependencies, proxies, workload, cleanup of every process, analysis, report. A
 * schema-1 scenario records events schema 1 and a report 2 or 3; a schema-2 scenario records
 * events schema 2 and a report 4 (v2/README.md, compatibility line).
 */
export async function runExperiment(
  scenario: AnyScenario,
  options: ExperimentOptions,
): Promise<ExperimentOutcome> {
  const { runId, runDir } = await createRunFolder(options.outputDir);
  if (options.scenarioText === undefined) await copyFile(scenario.sourcePath, join(runDir, "scenario.yaml"));
  else await writeFile(join(runDir, "scenario.yaml"), options.scenarioText);
  await writeFile(join(runDir, "stdout.log"), "");
  await writeFile(join(runDir, "stderr.log"), "");
  const recorder = new Recorder(join(runDir, "events.jsonl"), runId, scenario.schemaVersion);
  recorder.onEvent((event) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing display never breaks the recording.
    }
  });

  let modules: Promise<RunModules> | null = null;
  const load = (): Promise<RunModules> => {
    modules ??= loadRunModules();
    return modules;
  };
  const interrupt = options.interrupt ?? new AbortController().signal;
  const shared = {
    runId,
    runDir,
    sink: recorder,
    interrupt,
    forceStop: options.forceStop ?? new AbortController().signal,
    preload: () => void load(),
    startProxy: async (proxyOptions: Parameters<StepContext["startProxy"]>[0]) =>
      (await load()).startProxy(proxyOptions),
    ...(options.onWorkloadLine === undefined ? {} : { onWorkloadLine: options.onWorkloadLine }),
  };

  recorder.emit({ kind: "RUN_STARTED", scenario_name: scenario.name });
  const judgement =
    scenario.schemaVersion === 1
      ? await runV1({ ...shared, scenario }, recorder, load)
      : await runV2({ ...shared, scenario }, recorder, load);
  const { writeReport } = await load();
  const reportPath = await writeReport(runDir, judgement.report);
  const interrupted = interrupt.aborted;
  return {
    runId,
    runDir,
    reportPath,
    report: judgement.report,
    analysis: judgement.analysis,
    interrupted,
    exitCode: exitCodeFor(judgement.result, judgement.reasonCode, interrupted),
  };
}

async function runV1(
  context: StepContext<Scenario>,
  recorder: Recorder,
  load: () => Promise<RunModules>,
): Promise<Judgement> {
  await runSteps(context);
  const { analyze, buildReport, readEvents } = await load();
  const events = await readBack(recorder, () => readEvents(recorder.path));
  const first = analyze(context.scenario, events);
  const completed = recorder.emit({
    kind: "RUN_COMPLETED",
    result: first.result,
    reason_code: first.reasonCode,
    duration_ms: recorder.elapsedMs(),
  });
  recorder.close();
  const analysis = analyze(context.scenario, [...events, completed]);
  const report = buildReport({
    scenario: context.scenario,
    analysis,
    runId: context.runId,
    managedDependency: context.scenario.dependency.start !== null,
  });
  return { result: analysis.result, reasonCode: analysis.reasonCode, analysis, report };
}

async function runV2(
  context: StepContext<ScenarioV2>,
  recorder: Recorder,
  load: () => Promise<RunModules>,
): Promise<Judgement> {
  await runStepsV2(context);
  const { analyzeV2, buildReportV4, readEventsV2 } = await load();
  const events = await readBack(recorder, () => readEventsV2(recorder.path));
  const first = analyzeV2(context.scenario, events);
  const completed = recorder.emit({
    kind: "RUN_COMPLETED",
    result: first.result,
    reason_code: first.reasonCode,
    duration_ms: recorder.elapsedMs(),
  });
  recorder.close();
  // The recorder writes this file's schema: the completion event is a schema-2 event.
  const analysis = analyzeV2(context.scenario, [...events, completed as unknown as AgentChaosEventV2]);
  const managedDependencies = context.scenario.dependencies.flatMap((dependency) =>
    dependency.type === "http" && dependency.start !== null ? [dependency.name] : [],
  );
  const report = buildReportV4({
    scenario: context.scenario,
    analysis,
    runId: context.runId,
    managedDependencies,
  });
  return { result: analysis.result, reasonCode: analysis.reasonCode, analysis, report };
}

/**
 * The recorded stream, read back strictly from events.jsonl. Should that ever fail, the run
 * records an INTERNAL_ERROR and is judged on that alone.
 */
async function readBack<E>(recorder: Recorder, read: () => Promise<E[]>): Promise<E[]> {
  try {
    return await read();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const failure = recorder.emit({
      kind: "RUN_ERROR",
      reason_code: "INTERNAL_ERROR",
      message: `event stream could not be read back (${typeof code === "string" ? code : "error"})`,
    });
    return [failure as E];
  }
}
