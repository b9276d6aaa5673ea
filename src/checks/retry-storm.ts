import { coversDependency } from "./scope.js";
import type { CheckDefinition, RetryStormChainFinding, RetryStormFinding } from "./types.js";

/**
 * `retry_storm`: a retry chain with more than `max_attempts` operations (in the order of the
 * chains' first operations), then each retry observed less than `min_gap_ms` after a previous
 * failure that asked for no delay (in sequence order).
 */
export const retryStormCheck: CheckDefinition<"retry_storm"> = {
  reason: "RETRY_STORM",
  describe: (finding, config, label) =>
    isChainFinding(finding)
      ? `the retry chain of operation ${label(finding.first_operation_id)} has ${finding.operations} operations, more than ${config.maxAttempts}`
      : `operation ${label(finding.failed_operation_id)} was retried ${finding.gap_ms} ms after a response that asked for no delay, less than ${config.minGapMs} ms`,
  chain: (chain, config) =>
    chain.operations > config.maxAttempts && coversDependency(config, chain.dependency)
      ? { first_operation_id: chain.firstOperationId, operations: chain.operations }
      : null,
  retry: (gap, config) =>
    gap.retryAfterMs === null && gap.gapMs < config.minGapMs && coversDependency(config, gap.dependency)
      ? { operation_id: gap.retryId, failed_operation_id: gap.failedId, gap_ms: gap.gapMs }
      : null,
};

export function isChainFinding(finding: RetryStormFinding): finding is RetryStormChainFinding {
  return "first_operation_id" in finding;
}
