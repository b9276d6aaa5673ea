/**
 * What the checks find in one operation once its own events are all read: its retry gap (the
 * failure before it in its chain) and its repeats of lost writes. The bounded stream asks when
 * an operation closes, before it forgets it; the evidence asks for the operations still held.
 * Each finding carries its place in its check's list (docs/checks.md).
 */
import type { Finding, RetryGap } from "../checks/types.js";
import type { CheckName } from "../scenario/types.js";
import type { AnalysisStream } from "./analysis-stream.js";
import type { Operation } from "./operations.js";

/** A finding and where it goes in its check's list: by `group`, then `a`, then `b`. */
export interface PlacedFinding {
  readonly check: CheckName;
  readonly group: number;
  readonly a: number;
  readonly b: number;
  readonly finding: Finding;
}

/** The findings of the `chain` hook come first, then of `retry`, then of `repeat`. */
export const CHAIN_GROUP = 0;
const RETRY_GROUP = 1;
const REPEAT_GROUP = 2;

/** The failure before a retry in its chain, if any: the latest before it was observed. */
function retryGap(op: Operation): RetryGap | null {
  const start = op.observed ?? op.retry;
  if (start === null) return null;
  const previous = op.chain?.root().latestBefore("failure", start.index);
  const failure = previous?.failure;
  if (previous == null || failure == null) return null;
  return {
    retryId: op.id,
    dependency: op.observed?.payload.dependency ?? null,
    failedId: previous.id,
    gapMs: start.elapsedMs - failure.elapsedMs,
    retryAfterMs: failure.payload.retry_after_ms,
  };
}

export function findChecks(
  op: Operation,
  into: PlacedFinding[],
  stream: Pick<AnalysisStream, "checks" | "plan" | "lostWrites" | "keepLabel">,
): void {
  if (stream.checks.length === 0) return;
  const gap = op.retry === null ? null : retryGap(op);
  if (gap !== null) {
    const a = (op.retry as { index: number }).index;
    for (const { name, definition } of stream.checks) {
      const finding = definition.retry?.(gap, stream.plan.checks[name]);
      if (finding != null) into.push({ check: name, group: RETRY_GROUP, a, b: 0, finding });
    }
  }
  const observed = op.observed;
  if (observed === null || stream.lostWrites.size === 0) return;
  const lost = stream.lostWrites.get(`${observed.payload.dependency}\n${observed.payload.fingerprint}`);
  for (const write of lost ?? []) {
    if ((write.failure?.index ?? Number.POSITIVE_INFINITY) >= observed.index) continue;
    for (const { name, definition } of stream.checks) {
      const finding = definition.repeat?.(write, op);
      if (finding == null) continue;
      into.push({ check: name, group: REPEAT_GROUP, a: write.order, b: op.order, finding });
      stream.keepLabel(op);
    }
  }
}
