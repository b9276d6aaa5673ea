// The phases of one run, from its run folder: the timestamps of its events (the first or the
// last of a type) and the moment report.json was written. Shared by the run-overhead and the
// explore measurements, so that a run started by the CLI and an experiment explore runs in
// process are cut into the same phases.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { median, round } from "./stats.mjs";

/** Absolute ms of each event-marked moment of the run in `runDir`. */
export async function eventMoments(runDir) {
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  const times = (type) =>
    events.filter((event) => event.type === type).map((event) => Date.parse(event.timestamp));
  const last = (type) => Math.max(...times(type));
  const first = (type) => Math.min(...times(type));
  return {
    runStarted: first("RUN_STARTED"),
    dependenciesStarted: last("DEPENDENCY_STARTED"),
    dependenciesReady: last("DEPENDENCY_READY"),
    proxiesStarted: last("INJECTOR_STARTED"),
    workloadStarted: first("WORKLOAD_STARTED"),
    workloadCompleted: first("WORKLOAD_COMPLETED"),
    dependenciesStopped: last("DEPENDENCY_STOPPED"),
    runCompleted: first("RUN_COMPLETED"),
    reportWritten: (await stat(join(runDir, "report.json"))).mtimeMs,
  };
}

/** [key, label, from, to]: the phases between the moments `eventMoments` finds. */
export const EVENT_STEPS = [
  ["dependenciesSpawn", "supervisor started, dependencies spawned", "runStarted", "dependenciesStarted"],
  ["readiness", "dependencies ready (readiness polling)", "dependenciesStarted", "dependenciesReady"],
  ["proxies", "proxies listening", "dependenciesReady", "proxiesStarted"],
  ["workloadSpawn", "workload spawned", "proxiesStarted", "workloadStarted"],
  ["workload", "workload ran (to WORKLOAD_COMPLETED)", "workloadStarted", "workloadCompleted"],
  ["stop", "proxies closed, dependencies stopped", "workloadCompleted", "dependenciesStopped"],
  ["judge", "events read back and judged (RUN_COMPLETED)", "dependenciesStopped", "runCompleted"],
  ["report", "report.json built and written", "runCompleted", "reportWritten"],
];

/** Each step's length in ms for one run's moments. */
export function stepLengths(steps, moments) {
  return Object.fromEntries(steps.map(([key, , from, to]) => [key, moments[to] - moments[from]]));
}

/** Rows { phase, ms, share } of the median length of each step over `runs` (step lengths each). */
export function medianRows(steps, runs) {
  const rows = steps.map(([key, label]) => ({
    phase: label,
    ms: round(median(runs.map((lengths) => lengths[key])), 1),
  }));
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  return rows.map((row) => ({ ...row, share: round((100 * row.ms) / Math.max(total, 1), 1) }));
}
