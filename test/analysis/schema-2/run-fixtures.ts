/** Event-stream fragments shared by the schema-2 analyzer tests. */
import type { RunBuilder } from "../../helpers/events.js";

/** A request on `api` that fault `faultId` answers with a 503 (one fault-related failure). */
export function injectedFailure(run: RunBuilder, operationId: string, faultId = "f1", fingerprint = "fp-a") {
  return run
    .observed(operationId, fingerprint)
    .injected(operationId, faultId)
    .failed(operationId, "injected_http_error");
}

/** A retry of `failedId` that succeeds. */
export function successfulRetry(
  run: RunBuilder,
  operationId: string,
  failedId: string,
  fingerprint = "fp-a",
) {
  return run.observed(operationId, fingerprint).retry(operationId, failedId).succeeded(operationId);
}

/** An injected failure of `failedId` followed by a successful retry `retryId`. */
export function recoveredFault(run: RunBuilder, failedId: string, retryId: string, faultId = "f1") {
  return successfulRetry(injectedFailure(run, failedId, faultId), retryId, failedId);
}
