/** Event-stream fragments shared by the schema-2 analyzer tests. */
import type { RunBuilderV2 } from "../../helpers/events-v2.js";

/** A request on `api` that fault `faultId` answers with a 503 (one fault-related failure). */
export function injectedFailure(
  run: RunBuilderV2,
  operationId: string,
  faultId = "f1",
  fingerprint = "fp-a",
) {
  return run
    .observed(operationId, fingerprint)
    .injected(operationId, faultId)
    .failed(operationId, "injected_http_error");
}

/** A retry of `failedId` that succeeds. */
export function successfulRetry(
  run: RunBuilderV2,
  operationId: string,
  failedId: string,
  fingerprint = "fp-a",
) {
  return run.observed(operationId, fingerprint).retry(operationId, failedId).succeeded(operationId);
}

/** An injected failure of `failedId` followed by a successful retry `retryId`. */
export function recoveredFault(run: RunBuilderV2, failedId: string, retryId: string, faultId = "f1") {
  return successfulRetry(injectedFailure(run, failedId, faultId), retryId, failedId);
}
