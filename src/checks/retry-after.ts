import { coversDependency } from "./scope.js";
import type { CheckDefinition } from "./types.js";

/**
 * Whether a retry came too early: observed less than `retryAfterMs` − max(20 ms, 5 % of it)
 * after its previous failure. Exact integer arithmetic (both sides × 20), no rounding.
 */
export function isTooEarly(gapMs: number, retryAfterMs: number): boolean {
  return 20 * gapMs < 20 * retryAfterMs - Math.max(400, retryAfterMs);
}

/** `retry_after`: a retry whose previous failure asked for a wait, observed before it was over. */
export const retryAfterCheck: CheckDefinition<"retry_after"> = {
  reason: "RETRY_AFTER_NOT_HONOURED",
  describe: (finding, _config, label) =>
    `operation ${label(finding.failed_operation_id)} was retried ${finding.gap_ms} ms after a response that asked for ${finding.retry_after_ms} ms`,
  retry: (gap, config) =>
    gap.retryAfterMs !== null &&
    isTooEarly(gap.gapMs, gap.retryAfterMs) &&
    coversDependency(config, gap.dependency)
      ? {
          operation_id: gap.retryId,
          failed_operation_id: gap.failedId,
          retry_after_ms: gap.retryAfterMs,
          gap_ms: gap.gapMs,
        }
      : null,
};
