import type { Timeline } from "../events/timeline.js";

/** A retry and its previous failure (v2/evidence.md "Checks"). */
export interface RetryGap {
  readonly retryId: string;
  readonly failedId: string;
  /** Retry observed `elapsed_ms` − previous failure `elapsed_ms`. */
  readonly gapMs: number;
  /** What the previous failure's response asked for, or null. */
  readonly retryAfterMs: number | null;
}

/**
 * Every retry (an operation with a RETRY_OBSERVED), in sequence order, with its previous failure:
 * the latest OPERATION_FAILED of a member of its retry chain before the retry's
 * OPERATION_OBSERVED. A retry without an earlier failure in its chain is left out.
 */
export function retryGaps(timeline: Timeline): RetryGap[] {
  const gaps: { index: number; gap: RetryGap }[] = [];
  for (const op of timeline.operations.values()) {
    if (op.retry === null) continue;
    const start = op.observed ?? op.retry;
    let previous: { index: number; elapsedMs: number; id: string; retryAfterMs: number | null } | null = null;
    for (const member of timeline.chainOf(op.id)) {
      const failure = member.failure;
      if (failure === null || failure.index >= start.index) continue;
      if (previous === null || failure.index > previous.index)
        previous = { ...failure, id: member.id, retryAfterMs: failure.payload.retry_after_ms };
    }
    if (previous === null) continue;
    gaps.push({
      index: op.retry.index,
      gap: {
        retryId: op.id,
        failedId: previous.id,
        gapMs: start.elapsedMs - previous.elapsedMs,
        retryAfterMs: previous.retryAfterMs,
      },
    });
  }
  return gaps.sort((a, b) => a.index - b.index).map((entry) => entry.gap);
}
