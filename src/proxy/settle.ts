import type { FailureDetails, Operation, SuccessDetails } from "../events/operation.js";
import type { ResponseHeaders } from "../faults/types.js";
import { retryAfterMs } from "./retry-after.js";

/**
 * Settles an operation on the upstream's status; a failure also records the wait the response
 * asked for (`retry_after_ms`). Successes skip the header parsing.
 */
export function settleUpstream(
  operation: Operation,
  status: number,
  headers: ResponseHeaders,
  details: FailureDetails & SuccessDetails = {},
): boolean {
  if (status < 400) return operation.settle(status, details);
  return operation.settle(status, { ...details, retryAfterMs: retryAfterMs(headers, Date.now()) });
}
