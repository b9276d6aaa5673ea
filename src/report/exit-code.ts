import type { RunResult } from "../events/types.js";

const SETUP_OR_INTERNAL = new Set([
  "DEPENDENCY_START_FAILED",
  "PROXY_START_FAILED",
  "WORKLOAD_SPAWN_FAILED",
  "INTERNAL_ERROR",
  "REPLAY_MISMATCH",
]);

/** docs/cli.md exit codes: 130 interrupted, 3 setup/internal, 1 failed, 0 passed or recovered. */
export function exitCodeFor(result: RunResult, reasonCode: string, interrupted: boolean): number {
  if (interrupted) return 130;
  if (result !== "FAILED") return 0;
  return SETUP_OR_INTERNAL.has(reasonCode) ? 3 : 1;
}
