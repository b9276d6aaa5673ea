/** Event-stream fragments shared by the analyzer tests. */
import type { LegacyRunBuilder } from "../helpers/legacy-events.js";

/** A request that is injected with a 503 and fails (one fault-related failure). */
export function injectedFailure(
  run: LegacyRunBuilder,
  operationId: string,
  fingerprint = "fp-a",
): LegacyRunBuilder {
  return run
    .observed(operationId, fingerprint)
    .injected(operationId)
    .failed(operationId, "injected_http_error");
}

/** A retry of `failedId` that succeeds. */
export function successfulRetry(
  run: LegacyRunBuilder,
  operationId: string,
  failedId: string,
  fingerprint = "fp-a",
): LegacyRunBuilder {
  return run.observed(operationId, fingerprint).retry(operationId, failedId).succeeded(operationId);
}

/** An injected failure of `failedId` followed by a successful retry `retryId`. */
export function recoveredFault(
  run: LegacyRunBuilder,
  failedId: string,
  retryId: string,
  fingerprint = "fp-a",
): LegacyRunBuilder {
  return successfulRetry(injectedFailure(run, failedId, fingerprint), retryId, failedId, fingerprint);
}
