import type { Scenario } from "../scenario/types.js";
import { errorLabel } from "./error-label.js";
import { endedBeforeReady, notReadyInTime, type ReadinessFailure } from "./readiness-failure.js";

/**
 * How a run names its dependencies in RUN_ERROR messages and where their logs go. A schema-1
 * run keeps the seed tool's wording (one unnamed dependency, logs beside the workload's); a
 * schema-2 run names each dependency and logs under `dependencies/` (see docs/scenario.md).
 */
export interface DependencyWording {
  /** Folder of the dependency logs, relative to the run folder (`""` = the run folder). */
  readonly logFolder: string;
  /** A dependency's log file name for `stream` ("stdout" or "stderr"). */
  logFile(name: string, stream: "stdout" | "stderr"): string;
  readonly startingPhase: string;
  readonly proxyPhase: string;
  portBusy(name: string, port: number): string;
  /** `detail` names the program and the folder (see spawn-failure.ts). */
  spawnFailed(name: string, errno: string, detail: string): string;
  /** The RUN_ERROR message of a workload that could not be started. */
  workloadSpawnFailed(errno: string, detail: string): string;
  exitedDuringRun(name: string, exitCode: number | null): string;
  endedBeforeReady(failure: ReadinessFailure, exitCode: number | null, afterMs: number): string;
  notReadyInTime(failure: ReadinessFailure, limit: string): string;
  proxyFailed(name: string, error: unknown, safeMessage: string | null): string;
}

/** Schema 1's words. */
export const SINGLE_DEPENDENCY_WORDING: DependencyWording = {
  logFolder: "",
  logFile: (_name, stream) => `dependency.${stream}.log`,
  startingPhase: "starting the dependency",
  proxyPhase: "starting the proxy",
  portBusy: (_name, port) => `dependency port ${port} is already in use by another process`,
  spawnFailed: (_name, errno) => `dependency could not be started (spawn ${errno})`,
  workloadSpawnFailed: (errno) => `workload could not be started (spawn ${errno})`,
  exitedDuringRun: (_name, exitCode) => `dependency exited with code ${exitCode ?? "null"} during the run`,
  endedBeforeReady: (_failure, exitCode) =>
    `dependency exited with code ${exitCode ?? "null"} before becoming ready`,
  notReadyInTime: (_failure, limit) => `dependency did not become ready within ${limit}s`,
  proxyFailed: (_name, error, safeMessage) => safeMessage ?? `proxy could not start (${errorLabel(error)})`,
};

/** Schema 2's words: every message names its dependency. */
export const NAMED_DEPENDENCY_WORDING: DependencyWording = {
  logFolder: "dependencies",
  logFile: (name, stream) => `${name}.${stream}.log`,
  startingPhase: "starting the dependencies",
  proxyPhase: "starting the proxies",
  portBusy: (name, port) => `dependency ${name}: port ${port} is already in use by another process`,
  spawnFailed: (name, _errno, detail) => `dependency ${name} could not be started: ${detail}`,
  workloadSpawnFailed: (_errno, detail) => `workload could not be started: ${detail}`,
  exitedDuringRun: (name, exitCode) =>
    `dependency ${name} exited with code ${exitCode ?? "null"} during the run`,
  endedBeforeReady,
  notReadyInTime,
  proxyFailed: (name, error, safeMessage) =>
    safeMessage === null
      ? `proxy of dependency ${name} could not start (${errorLabel(error)})`
      : `${safeMessage} (dependency ${name})`,
};

/** The wording of a run: the seed tool's for a scenario whose dependency is unnamed. */
export function wordingOf(scenario: Scenario): DependencyWording {
  return scenario.dependencyNaming === "unnamed" ? SINGLE_DEPENDENCY_WORDING : NAMED_DEPENDENCY_WORDING;
}
