/**
 * The reason of a schema-2 DEPENDENCY_START_FAILED, as one line a user can act on: which
 * dependency, what was polled where and how often, what the last poll got, what the process did,
 * and where its output is. Paths, counts, status codes and system error codes only (no query, no
 * header, no body, no log content).
 */
import { describeExitCode } from "../events/exit-status.js";
import type { ProbeResult, ReadinessLog } from "./readiness.js";

export interface ReadinessFailure {
  readonly dependency: string;
  /** The path of the dependency's base URL (`""` or `/v1`), as configured. */
  readonly basePath: string;
  /** `readiness.path` as configured (its query is never shown). */
  readonly readinessPath: string;
  readonly log: ReadinessLog;
}

const withoutQuery = (path: string): string => path.split("?")[0] ?? "";

/** `GET /v1/health (base_url path /v1 + readiness.path /health)`, or `GET /health` without a prefix. */
export function polledRequest(basePath: string, readinessPath: string): string {
  const prefix = basePath.replace(/\/+$/, "");
  const path = withoutQuery(readinessPath);
  return prefix === ""
    ? `GET ${path}`
    : `GET ${prefix}${path} (base_url path ${prefix} + readiness.path ${path})`;
}

function lastAnswer(last: ProbeResult | null): string {
  if (last === null) return "no poll completed";
  if ("status" in last) return `last answer: status ${last.status}`;
  if (last.error === "timeout") return "last answer: none within 0.5s";
  if (last.error === "ECONNREFUSED") return "last answer: connection refused";
  return `last answer: connection failed (${last.error})`;
}

function polls(failure: ReadinessFailure): string {
  const { log } = failure;
  const times = log.polls === 1 ? "once" : `${log.polls} times`;
  const request = polledRequest(failure.basePath, failure.readinessPath);
  return log.polls === 0
    ? `no poll of ${request} completed`
    : `polled ${request} ${times}, ${lastAnswer(log.last)}`;
}

const output = (name: string): string =>
  `its output is in dependencies/${name}.stdout.log and dependencies/${name}.stderr.log`;

/** The time limit passed while the process kept running. */
export function notReadyInTime(failure: ReadinessFailure, limit: string): string {
  return `dependency ${failure.dependency} did not become ready within ${limit}s: ${polls(failure)}; the process is still running; ${output(failure.dependency)}`;
}

/** The process ended before a poll succeeded. */
export function endedBeforeReady(
  failure: ReadinessFailure,
  exitCode: number | null,
  afterMs: number,
): string {
  const ended =
    exitCode === null
      ? "ended"
      : exitCode >= 0
        ? `exited with code ${exitCode}`
        : `was ${describeExitCode(exitCode)}`;
  const after = (afterMs / 1000).toFixed(2);
  return `dependency ${failure.dependency} ${ended} after ${after}s, before becoming ready: ${polls(failure)}; ${output(failure.dependency)}`;
}
