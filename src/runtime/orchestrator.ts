import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Analysis } from "../analysis/types.js";
import { Recorder } from "../events/recorder.js";
import type { AgentChaosEvent } from "../events/types.js";
import type { Report } from "../report/types.js";
import type { Scenario } from "../scenario/types.js";
import { errorLabel } from "./error-label.js";
import { exitCodeFor } from "./exit-code.js";
import { createArtifact, RunAbort } from "./run-abort.js";
import { createRunFolder } from "./run-folder.js";
import { loadRunModules, type RunModules } from "./run-modules.js";
import { runSteps, type StepContext } from "./steps.js";

export interface ExperimentOptions {
  /** Where the run folder is created (with parents); relative paths resolve against the process cwd. */
  readonly outputDir: string;
  /** Interruption (SIGINT/SIGTERM): stop everything, complete the run folder, exit code 130. */
  readonly interrupt?: AbortSignal;
  /** A second interruption: skip grace periods. */
  readonly forceStop?: AbortSignal;
  /** Called synchronously after each event is recorded (live terminal lines). */
  readonly onEvent?: (event: AgentChaosEvent) => void;
  /** Each complete line of workload output. */
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
}

export interface ExperimentOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly reportPath: string;
  readonly report: Report;
  readonly analysis: Analysis;
  readonly interrupted: boolean;
  readonly exitCode: number;
}

/**
 * Runs one experiment end to end (run.md "Lifecycle of run"): run folder and artifacts,
 * managed dependency, proxy, workload, cleanup of every process, analysis, report.
 * An artifact that cannot be written stops the run early and, once every process is stopped
 * (and the report written when the events are complete), rejects with `RunIoError`.
 */
export async function runExperiment(
  scenario: Scenario,
  options: ExperimentOptions,
): Promise<ExperimentOutcome> {
  const { runId, runDir } = await createRunFolder(options.outputDir);
  await createArtifact(runDir, "scenario.yaml", () =>
    copyFile(scenario.sourcePath, join(runDir, "scenario.yaml")),
  );
  await createArtifact(runDir, "stdout.log", () => writeFile(join(runDir, "stdout.log"), ""));
  await createArtifact(runDir, "stderr.log", () => writeFile(join(runDir, "stderr.log"), ""));
  const recorder = await createArtifact(
    runDir,
    "events.jsonl",
    () => new Recorder(join(runDir, "events.jsonl"), runId),
  );
  const abort = new RunAbort(recorder);
  recorder.onWriteError((code) => abort.ioFailure("events.jsonl", code));
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
  const context: StepContext = {
    scenario,
    runId,
    runDir,
    sink: recorder,
    interrupt: AbortSignal.any([interrupt, abort.signal]),
    abortRun: abort,
    forceStop: options.forceStop ?? new AbortController().signal,
    preload: () => void load(),
    startProxy: async (proxyOptions) => (await load()).startProxy(proxyOptions),
    ...(options.onWorkloadLine === undefined ? {} : { onWorkloadLine: options.onWorkloadLine }),
  };

  recorder.emit({ kind: "RUN_STARTED", scenario_name: scenario.name });
  await runSteps(context);
  abort.stopRecording();
  if (recorder.writeError !== null) {
    // The evidence is incomplete: no verdict is drawn from it (inspect --recover reads the prefix).
    abort.ioFailure("events.jsonl", recorder.writeError);
    recorder.close();
    abort.throwIfIoFailed(runDir);
  }

  const { analyze, buildReport, readEvents, writeReport } = await load();
  const events = await readBack(recorder, readEvents);
  const first = analyze(scenario, events);
  const completed = recorder.emit({
    kind: "RUN_COMPLETED",
    result: first.result,
    reason_code: first.reasonCode,
    duration_ms: recorder.elapsedMs(),
  });
  recorder.close();
  const analysis = analyze(scenario, [...events, completed]);
  const report = buildReport({
    scenario,
    analysis,
    runId,
    managedDependency: scenario.dependency.start !== null,
  });
  const reportPath = await writeReport(runDir, report).catch((error: unknown) => {
    abort.ioFailure("report.json", errorLabel(error));
    return join(runDir, "report.json");
  });
  abort.throwIfIoFailed(runDir);
  const interrupted = interrupt.aborted;
  return {
    runId,
    runDir,
    reportPath,
    report,
    analysis,
    interrupted,
    exitCode: exitCodeFor(analysis.result, analysis.reasonCode, interrupted),
  };
}

/**
 * The recorded stream, read back strictly from events.jsonl. Should that ever fail, the run
 * records an INTERNAL_ERROR and is judged on that alone.
 */
async function readBack(
  recorder: Recorder,
  readEvents: RunModules["readEvents"],
): Promise<AgentChaosEvent[]> {
  try {
    return await readEvents(recorder.path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const failure = recorder.emit({
      kind: "RUN_ERROR",
      reason_code: "INTERNAL_ERROR",
      message: `event stream could not be read back (${typeof code === "string" ? code : "error"})`,
    });
    return [failure];
  }
}
