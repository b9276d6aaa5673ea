/**
 * The verdict of a run that did not finish (killed, crashed, disk full), drawn from what it left:
 * the copy of its scenario and the valid prefix of its events. Analysed exactly as a finished
 * run is (analysis.md), and marked as recovered: its report names `report.recovered.json` as
 * its own file, which is also where `writeRecoveredReport` puts it (never over anything).
 */
import { rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { analyze } from "../analysis/analyze.js";
import { AnalysisStream } from "../analysis/stream/analysis-stream.js";
import { AnalysisStreamV2 } from "../analysis/stream/analysis-stream-v2.js";
import type { Analysis } from "../analysis/types.js";
import { analyzeV2 } from "../analysis/v2/analyze.js";
import type { AnalysisV2 } from "../analysis/v2/types.js";
import { EventsError } from "../events/events-error.js";
import { type PrefixRead, readEventsPrefix, streamEventsPrefix } from "../events/prefix-reader.js";
import { parseEventLine, parseEventLineV2 } from "../events/reader.js";
import type { AgentChaosEvent } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import { ScenarioError } from "../scenario/errors.js";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { parseScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";
import { AgentChaosError } from "../support/errors.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { buildReport } from "./build.js";
import type { Report } from "./types.js";
import { buildReportV4 } from "./v2/build.js";
import { serializeReport } from "./writer.js";

export const RECOVERED_REPORT_FILE = "report.recovered.json";

/** Why nothing could be recovered; the message names the file and the reason, never content. */
export class RecoveryError extends AgentChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("RECOVERY_FAILED", message, options);
  }
}

export interface RecoveredRun {
  readonly runDir: string;
  readonly report: Report;
  /** Valid events analysed. */
  readonly eventCount: number;
  /** Whether the events include RUN_COMPLETED (the run finished, only its report is missing). */
  readonly runCompleted: boolean;
  /** The first line of events.jsonl left out (cut off or invalid), null when none was. */
  readonly stoppedAtLine: number | null;
}

async function readScenarioCopy(runDir: string) {
  const path = join(runDir, "scenario.yaml");
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(path, SCENARIO_LIMITS.maxBytes);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new RecoveryError(
      error.code === "FILE_NOT_FOUND"
        ? "no scenario.yaml in the run folder"
        : `scenario.yaml ${error.reason}`,
      { cause: error },
    );
  }
  try {
    return parseScenario(bytes, path);
  } catch (error) {
    if (error instanceof ScenarioError)
      throw new RecoveryError("scenario.yaml is not a valid scenario", { cause: error });
    throw error;
  }
}

/** The analysis of the prefix of events, and what the command says about it. */
interface PrefixAnalysis<A> {
  readonly analysis: A;
  readonly count: number;
  readonly stoppedAtLine: number | null;
  readonly runId: string | null;
  readonly runCompleted: boolean;
}

interface Analyzer<S, E, A> {
  readonly parse: (text: string, line: number) => E;
  readonly stream: (scenario: S) => { push(event: E): boolean; result(): A };
  readonly batch: (scenario: S, events: readonly E[]) => A;
}

const V1: Analyzer<Scenario, AgentChaosEvent, Analysis> = {
  parse: parseEventLine,
  stream: (scenario) => new AnalysisStream(scenario),
  batch: analyze,
};

const V2: Analyzer<ScenarioV2, AgentChaosEventV2, AnalysisV2> = {
  parse: parseEventLineV2,
  stream: (scenario) => new AnalysisStreamV2(scenario),
  batch: analyzeV2,
};

function eventsError(error: unknown): RecoveryError {
  if (!(error instanceof EventsError)) throw error;
  const cause = error.cause;
  return new RecoveryError(
    error.code === "EVENTS_NOT_FOUND"
      ? "no events.jsonl in the run folder"
      : cause instanceof FileReadError
        ? `events.jsonl ${cause.reason}`
        : "events.jsonl is unreadable",
    { cause: error },
  );
}

function contradiction(error: unknown): RecoveryError {
  return new RecoveryError("the events contradict the scenario's fault trigger", { cause: error });
}

/**
 * Analyses the valid prefix of events.jsonl as it is read: memory holds what the analysis still
 * depends on, not the events. A log the streaming analysis cannot judge alone (never one the
 * recorder writes) is read again whole, its first `count` events, and judged by the batch
 * analyzer: the result is the same either way.
 */
async function analysePrefix<S, E extends { readonly type: string; readonly run_id: string }, A>(
  analyzer: Analyzer<S, E, A>,
  scenario: S,
  path: string,
): Promise<PrefixAnalysis<A>> {
  const stream = analyzer.stream(scenario);
  let runId: string | null = null;
  let runCompleted = false;
  let streaming = true;
  let read: PrefixRead;
  try {
    read = await streamEventsPrefix(path, analyzer.parse, (event) => {
      runId ??= event.run_id;
      if (event.type === "RUN_COMPLETED") runCompleted = true;
      if (streaming) streaming = stream.push(event);
      return true;
    });
  } catch (error) {
    if (error instanceof EventsError) throw eventsError(error);
    throw contradiction(error);
  }
  if (read.count === 0) throw new RecoveryError("events.jsonl holds no valid event");
  if (streaming) {
    try {
      return { analysis: stream.result(), ...read, runId, runCompleted };
    } catch (error) {
      throw contradiction(error);
    }
  }
  const prefix = await readEventsPrefix(path, analyzer.parse).catch((error: unknown) => {
    throw eventsError(error);
  });
  try {
    return {
      analysis: analyzer.batch(scenario, prefix.events.slice(0, read.count)),
      ...read,
      runId,
      runCompleted,
    };
  } catch (error) {
    throw contradiction(error);
  }
}

/** Recovers the verdict of the run in `runDir` from its scenario copy and its events prefix. */
export async function recoverRun(folder: string): Promise<RecoveredRun> {
  const runDir = resolve(folder);
  const scenario = await readScenarioCopy(runDir);
  const path = join(runDir, "events.jsonl");
  let report: Report;
  let prefix: PrefixAnalysis<unknown>;
  try {
    if (scenario.schemaVersion === 1) {
      const done = await analysePrefix(V1, scenario, path);
      prefix = done;
      const managedDependency = scenario.dependency.start !== null;
      const runId = done.runId ?? basename(runDir);
      report = buildReport({ scenario, analysis: done.analysis, runId, managedDependency });
    } else {
      const done = await analysePrefix(V2, scenario, path);
      prefix = done;
      const managedDependencies = scenario.dependencies.flatMap((dependency) =>
        dependency.type === "http" && dependency.start !== null ? [dependency.name] : [],
      );
      const runId = done.runId ?? basename(runDir);
      report = buildReportV4({ scenario, analysis: done.analysis, runId, managedDependencies });
    }
  } catch (error) {
    throw error instanceof RecoveryError ? error : contradiction(error);
  }
  return {
    runDir,
    report: { ...report, artifacts: { ...report.artifacts, report: RECOVERED_REPORT_FILE } } as Report,
    eventCount: prefix.count,
    runCompleted: prefix.runCompleted,
    stoppedAtLine: prefix.stoppedAtLine,
  };
}

/**
 * Writes the recovered report as `report.recovered.json` in the run folder and returns its
 * path. It is created, never replaced: an existing file of that name is an error.
 */
export async function writeRecoveredReport(recovered: RecoveredRun): Promise<string> {
  const path = join(recovered.runDir, RECOVERED_REPORT_FILE);
  try {
    await writeFile(path, serializeReport(recovered.report), { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST")
      throw new RecoveryError(`${RECOVERED_REPORT_FILE} already exists; it is never replaced`);
    // Not EEXIST, so any file of that name is the one this call created: no half-written file stays.
    await rm(path, { force: true }).catch(() => undefined);
    throw new RecoveryError(`could not write ${RECOVERED_REPORT_FILE} (${code ?? "error"})`, {
      cause: error,
    });
  }
  return path;
}
