import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Recorder } from "../events/recorder.js";
import type { AnyAgentChaosEvent } from "../events/types.js";
import { withJitterSeeds } from "../faults/jitter.js";
import { exitCodeFor } from "../report/exit-code.js";
import type { FormatAnalysis } from "../report/run-format.js";
import type { Report } from "../report/types.js";
import { eventsSchemaOf } from "../scenario/additions.js";
import type { AnyScenario } from "../scenario/parse.js";
import { errorLabel } from "./error-label.js";
import type { JudgeHooks } from "./judge.js";
import type { RecordRequest } from "./replay-steps.js";
import { createArtifact, RunAbort } from "./run-abort.js";
import { createRunFolder } from "./run-folder.js";
import { loadRunModules, type RunModules } from "./run-modules.js";
import { runSteps, type StepContext } from "./steps.js";
import { recorderTriggerClock } from "./trigger-clock.js";

export interface ExperimentOptions {
  /** Where the run folder is created (with parents); relative paths resolve against the process cwd. */
  readonly outputDir: string;
  /** Interruption (SIGINT/SIGTERM): stop everything, complete the run folder, exit code 130. */
  readonly interrupt?: AbortSignal;
  /** A second interruption: skip grace periods. */
  readonly forceStop?: AbortSignal;
  /** Called synchronously after each event is recorded (live terminal lines). */
  readonly onEvent?: (event: AnyAgentChaosEvent) => void;
  /** Each complete line of workload output. */
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
  /** The run folder's `scenario.yaml` text, for a scenario built in memory (default: a copy of its source file). */
  readonly scenarioText?: string;
  /** `agentchaos record`: which cassettes this run writes (docs/replay.md). */
  readonly record?: RecordRequest;
}

export interface ExperimentOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly reportPath: string;
  /** Schema 2 or 3 for a schema-1 scenario, schema 4 for a schema-2 scenario. */
  readonly report: Report;
  readonly analysis: FormatAnalysis;
  readonly interrupted: boolean;
  readonly exitCode: number;
}

/** The analysed run and its report, in the run's format. */
interface Judgement {
  readonly analysis: FormatAnalysis;
  readonly report: Report;
}

/**
 * Runs one experiment end to end (docs/cli.md "Lifecycle"): run folder and artifacts,
 * managed dependencies, proxies, workload, cleanup of every process, analysis, report. A
 * schema-1 scenario records events schema 1 and a report 2 or 3; a schema-2 scenario records
 * events schema 2 and a report 4 (docs/README.md, versions at a glance). An artifact that cannot
 * be written stops the run early and, once every process is stopped (and the report written
 * when the events are complete), rejects with `RunIoError`.
 */
export async function orchestrateRun(
  given: AnyScenario,
  options: ExperimentOptions,
): Promise<ExperimentOutcome> {
  const { runId, runDir } = await createRunFolder(options.outputDir);
  // A jittered latency without its own seed draws from one the run id gives (recorded in the report).
  const scenario = withJitterSeeds(given, runId);
  const scenarioText = options.scenarioText ?? scenario.sourceText;
  await createArtifact(runDir, "scenario.yaml", () =>
    scenarioText === undefined
      ? copyFile(scenario.sourcePath, join(runDir, "scenario.yaml"))
      : writeFile(join(runDir, "scenario.yaml"), scenarioText),
  );
  await createArtifact(runDir, "stdout.log", () => writeFile(join(runDir, "stdout.log"), ""));
  await createArtifact(runDir, "stderr.log", () => writeFile(join(runDir, "stderr.log"), ""));
  const recorder = await createArtifact(
    runDir,
    "events.jsonl",
    () => new Recorder(join(runDir, "events.jsonl"), runId, eventsSchemaOf(scenario)),
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
    modules ??= loadRunModules(scenario.faults.length > 0);
    return modules;
  };
  const interrupt = options.interrupt ?? new AbortController().signal;
  const shared = {
    runId,
    runDir,
    sink: recorder,
    triggerClock: recorderTriggerClock(recorder),
    interrupt: AbortSignal.any([interrupt, abort.signal]),
    abortRun: abort,
    recorded: recorder,
    forceStop: options.forceStop ?? new AbortController().signal,
    preload: () => void load(),
    startProxy: async (proxyOptions: Parameters<StepContext["startProxy"]>[0]) =>
      (await load()).startProxy(proxyOptions),
    ...(options.onWorkloadLine === undefined ? {} : { onWorkloadLine: options.onWorkloadLine }),
    ...(options.record === undefined ? {} : { record: options.record }),
  };

  recorder.emit({ kind: "RUN_STARTED", scenario_name: scenario.name });
  await runSteps({ ...shared, scenario });
  abort.stopRecording();
  // Whatever the last turn recorded is written now, so a failed write is known before judging.
  recorder.flush();
  if (recorder.writeError !== null) {
    // The evidence is incomplete: no verdict is drawn from it (inspect --recover reads the prefix).
    abort.ioFailure("events.jsonl", recorder.writeError);
    recorder.close();
    abort.throwIfIoFailed(runDir);
  }

  const judgement = await judge(scenario, runId, recorder, await load());
  const { writeReport } = await load();
  const reportPath = await writeReport(runDir, judgement.report).catch((error: unknown) => {
    abort.ioFailure("report.json", errorLabel(error));
    return join(runDir, "report.json");
  });
  abort.throwIfIoFailed(runDir);
  const { result, reasonCode } = judgement.analysis;
  const interrupted = interrupt.aborted;
  return {
    runId,
    runDir,
    reportPath,
    report: judgement.report,
    analysis: judgement.analysis,
    interrupted,
    exitCode: exitCodeFor(result, reasonCode, interrupted),
  };
}

/**
 * How the judgement records through the run's recorder: RUN_COMPLETED with the first verdict
 * (then the file is complete and the recorder closed), or the RUN_ERROR of an events file that
 * could not be read back, on which alone the run is then judged.
 */
function judgeHooks(recorder: Recorder): JudgeHooks {
  recorder.flush();
  return {
    complete(first) {
      // The recorder writes this file's schema: the completion is an event of the same schema.
      const completed = recorder.emit({
        kind: "RUN_COMPLETED",
        result: first.result,
        reason_code: first.reasonCode,
        duration_ms: recorder.elapsedMs(),
      });
      recorder.close();
      return completed;
    },
    unreadable: (code) =>
      recorder.emit({
        kind: "RUN_ERROR",
        reason_code: "INTERNAL_ERROR",
        message: `event stream could not be read back (${code})`,
      }),
  };
}

/**
 * The analysis and report of a finished run, in its format (report/run-format.ts): the recorded
 * stream is read back and judged as it is read (runtime/judge.ts), RUN_COMPLETED included.
 */
async function judge(
  scenario: AnyScenario,
  runId: string,
  recorder: Recorder,
  modules: RunModules,
): Promise<Judgement> {
  const format = modules.runFormatOf(scenario);
  const analysis = await modules.judgeWith(format, recorder.path, judgeHooks(recorder));
  return { analysis, report: format.report(analysis, runId) };
}
