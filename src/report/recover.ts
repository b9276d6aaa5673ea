/**
 * The verdict of a run that did not finish (killed, crashed, disk full), drawn from what it left:
 * the copy of its scenario and the valid prefix of its events. Analysed exactly as a finished
 * run is (docs/evidence.md), and marked as recovered: its report names `report.recovered.json` as
 * its own file, which is also where `writeRecoveredReport` puts it (never over anything).
 */
import { rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { AnalysisStream } from "../analysis/analysis-stream.js";
import { evidenceOf } from "../analysis/evidence.js";
import { analyzeEvents } from "../analysis/run-analysis.js";
import { EventsError } from "../events/events-error.js";
import { type PrefixRead, readEventsPrefix, streamEventsPrefix } from "../events/prefix-reader.js";
import { ScenarioError } from "../scenario/errors.js";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { parseScenario } from "../scenario/parse.js";
import { AgentChaosError } from "../support/errors.js";
import { FileReadError, readRegularFile } from "../support/regular-file.js";
import { type FormatAnalysis, type RunFormat, runFormatOf } from "./run-format.js";
import type { Report } from "./types.js";
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
async function analysePrefix(format: RunFormat, path: string): Promise<PrefixAnalysis<FormatAnalysis>> {
  let runId: string | null = null;
  let runCompleted = false;
  /** One reading of the prefix into a stream; its analysis is null when the stream cannot judge the log. */
  const attempt = async (whole: boolean) => {
    const stream = new AnalysisStream(format.plan, { whole });
    let usable = true;
    runId = null;
    runCompleted = false;
    const read = await streamEventsPrefix(path, format.parseLine, (event) => {
      runId ??= event.run_id;
      if (event.type === "RUN_COMPLETED") runCompleted = true;
      if (usable) usable = stream.push(event);
      return true;
    });
    return { read, stream: usable ? stream : null };
  };
  let read: PrefixRead;
  let stream: AnalysisStream | null;
  try {
    ({ read, stream } = await attempt(false));
    if (read.count > 0 && stream === null) ({ read, stream } = await attempt(true));
  } catch (error) {
    if (error instanceof EventsError) throw eventsError(error);
    throw contradiction(error);
  }
  if (read.count === 0) throw new RecoveryError("events.jsonl holds no valid event");
  try {
    if (stream !== null)
      return { analysis: format.conclude(evidenceOf(stream)), ...read, runId, runCompleted };
  } catch (error) {
    throw contradiction(error);
  }
  // Events out of sequence order: the prefix is read whole and analysed sorted.
  const prefix = await readEventsPrefix(path, format.parseLine).catch((error: unknown) => {
    throw eventsError(error);
  });
  try {
    const events = prefix.events.slice(0, read.count);
    return { analysis: format.conclude(analyzeEvents(format.plan, events)), ...read, runId, runCompleted };
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
  let prefix: PrefixAnalysis<FormatAnalysis>;
  try {
    const format = runFormatOf(scenario);
    const done = await analysePrefix(format, path);
    prefix = done;
    report = format.report(done.analysis, done.runId ?? basename(runDir));
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
