import { RUN_ERROR_REASONS_WITH_REPLAY } from "../../events/legacy/payload-fields.js";
import type { RunResult } from "../../events/types.js";

/** Reason codes of a `RUN_ERROR`: the report only has to say `FAILED` (docs/evidence.md, rule 1). */
export const RUN_ERROR_REASONS: ReadonlySet<string> = new Set(RUN_ERROR_REASONS_WITH_REPLAY);

/** Reason codes of a workload that did not finish as expected (docs/evidence.md, rules 2–5). */
export const WORKLOAD_REASONS: ReadonlySet<string> = new Set([
  "WORKLOAD_NOT_COMPLETED",
  "INTERRUPTED",
  "WORKLOAD_TIMED_OUT",
  "WORKLOAD_EXIT_CODE_MISMATCH",
]);

/** Every reason code a report of schema 1, 2 or 3 may carry (docs/evidence.md). */
export const REASON_CODES: readonly string[] = [
  ...RUN_ERROR_REASONS,
  ...WORKLOAD_REASONS,
  "BASELINE_SUCCEEDED",
  "FAULT_NOT_TRIGGERED",
  "FAULT_SCHEDULE_INCOMPLETE",
  "TRIGGER_WINDOW_INCOMPLETE",
  "FAULT_TOLERATED",
  "RECOVERY_NOT_OBSERVED",
  "RECOVERY_OBSERVED",
];

/**
 * Schema 3: a `FAILED` run with a run-error or workload reason may have stopped before its
 * trigger evidence was complete, so its counts and selections need not agree.
 */
export function mayHaveIncompleteEvidence(result: RunResult, reasonCode: string): boolean {
  return result === "FAILED" && (RUN_ERROR_REASONS.has(reasonCode) || WORKLOAD_REASONS.has(reasonCode));
}

/** Every reason code a report of schema 4 may carry (docs/evidence.md, the precedence table). */
export const FAULT_LIST_REASON_CODES: readonly string[] = [
  ...REASON_CODES,
  "UNEXPECTED_RETRY",
  "FAULT_NOT_APPLIED",
  "PARTIAL_RESPONSE_ACCEPTED",
  "RETRY_AFTER_NOT_HONOURED",
  "RETRY_STORM",
  "DUPLICATE_WRITE",
  "FAILURE_HANDLED",
  "CLAIMED_SUCCESS",
  "CORRUPTION_PROPAGATED",
  "AGENT_HUNG",
  "CANCELLATION_NOT_SENT",
];
