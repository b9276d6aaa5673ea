import type { RunResult } from "../events/types.js";

const SETUP_OR_INTERNAL = new Set([
  "DEPENDENCY_START_FAILED",
  "PROXY_START_FAILED",
  "WORKLOAD_SPAWN_FAILED",
  "INTERNAL_ERROR",
  "REPLAY_MISMATCH",
]);

/**
 * A run that ended on a request its cassette never recorded (docs/replay.md): the recording is
 * stale, the agent is not judged. Explore shows such a cell as "not recorded", never a failure.
 */
export function isReplayMismatch(
  run: { readonly result: RunResult; readonly reason_code: string } | null | undefined,
): boolean {
  return run?.result === "FAILED" && run.reason_code === "REPLAY_MISMATCH";
}

/** docs/cli.md exit codes: 130 interrupted, 3 setup/internal, 1 failed, 0 passed or recovered. */
export function exitCodeFor(result: RunResult, reasonCode: string, interrupted: boolean): number {
  if (interrupted) return 130;
  if (result !== "FAILED") return 0;
  return SETUP_OR_INTERNAL.has(reasonCode) ? 3 : 1;
}
