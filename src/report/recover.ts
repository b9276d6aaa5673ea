/**
 * The verdict of a run that did not finish (killed, crashed, disk full), drawn from what it left:
 * the copy of its scenario and the valid prefix of its events. Analysed exactly as a finished
 * run is (docs/evidence.md), and marked as recovered: its report names `report.recovered.json` as
 * its own file, which is also where `writeRecoveredReport` puts it (never over anything).
 */
import { rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { analyzeRun } from "../analysis/run-analysis.js";
import { analyzeSchema1 } from "../analysis/schema-1.js";
import { EventsError } from "../events/events-error.js";
import { type EventsPrefix, readEventsPrefix } from "../events/prefix-reader.js";
import { parseEventLineV2 } from "../events/reader.js";
import type { AgentChaosEvent } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import { ScenarioError } from "../scenario/errors.js";
import { SCENARIO_LIMITS } from "../scenario/limits.js";
import { parseScenario } from "../scenario/parse.js";
import { readRegularFile } from "../support/bounded-read.js";
import { AgentChaosError } from "../support/errors.js";
import { buildReport } from "./build.js";
import type { Report } from "./types.js";
import { buildReportV4 } from "./v4/build.js";
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
    const read = await readRegularFile(path, SCENARIO_LIMITS.maxBytes);
    if (read.kind !== "file") throw new RecoveryError("scenario.yaml is not a readable scenario file");
    bytes = read.bytes;
  } catch (error) {
    if (error instanceof RecoveryError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new RecoveryError(
      code === "ENOENT" || code === "ENOTDIR"
        ? "no scenario.yaml in the run folder"
        : "scenario.yaml is unreadable",
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

/** Recovers the verdict of the run in `runDir` from its scenario copy and its events prefix. */
export async function recoverRun(folder: string): Promise<RecoveredRun> {
  const runDir = resolve(folder);
  const scenario = await readScenarioCopy(runDir);
  let prefix: EventsPrefix<AgentChaosEvent | AgentChaosEventV2>;
  try {
    const path = join(runDir, "events.jsonl");
    prefix =
      scenario.schemaVersion === 1
        ? await readEventsPrefix(path)
        : await readEventsPrefix<AgentChaosEventV2>(path, parseEventLineV2);
  } catch (error) {
    if (!(error instanceof EventsError)) throw error;
    throw new RecoveryError(
      error.code === "EVENTS_NOT_FOUND" ? "no events.jsonl in the run folder" : "events.jsonl is unreadable",
      { cause: error },
    );
  }
  const { events, stoppedAtLine } = prefix;
  if (events.length === 0) throw new RecoveryError("events.jsonl holds no valid event");
  const runId = events[0]?.run_id ?? basename(runDir);
  let report: Report;
  try {
    if (scenario.schemaVersion === 1) {
      const analysis = analyzeSchema1(scenario, events as AgentChaosEvent[]);
      const managedDependency = scenario.dependency.start !== null;
      report = buildReport({ scenario, analysis, runId, managedDependency });
    } else {
      const analysis = analyzeRun(scenario, events as AgentChaosEventV2[]);
      const managedDependencies = scenario.dependencies.flatMap((dependency) =>
        dependency.type === "http" && dependency.start !== null ? [dependency.name] : [],
      );
      report = buildReportV4({ scenario, analysis, runId, managedDependencies });
    }
  } catch (error) {
    throw new RecoveryError("the events contradict the scenario's fault trigger", { cause: error });
  }
  return {
    runDir,
    report: { ...report, artifacts: { ...report.artifacts, report: RECOVERED_REPORT_FILE } } as Report,
    eventCount: events.length,
    runCompleted: events.some((event) => event.type === "RUN_COMPLETED"),
    stoppedAtLine,
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
