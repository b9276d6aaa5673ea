import type { RunResult } from "../events/types.js";
import { RUN_ERROR_REASONS } from "./rules/reasons.js";

/**
 * A run that ended on a request its cassette never recorded (docs/replay.md): the recording is
 * stale, the agent is not judged. Explore shows such a cell as "not recorded", never a failure.
 */
export function isReplayMismatch(
  run: { readonly result: RunResult; readonly reason_code: string } | null | undefined,
): boolean {
  return run?.result === "FAILED" && run.reason_code === "REPLAY_MISMATCH";
}

/** docs/cli.md exit codes: 130 interrupted, 3 setup/internal (a run error), 1 failed, 0 passed or recovered. */
export function exitCodeFor(result: RunResult, reasonCode: string, interrupted: boolean): number {
  if (interrupted) return 130;
  if (result !== "FAILED") return 0;
  return RUN_ERROR_REASONS.has(reasonCode) ? 3 : 1;
}
