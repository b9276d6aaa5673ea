import type { OperationSucceededPayload, RetryObservedPayload } from "../events/types.js";
import type { OperationSucceededPayloadV2 } from "../events/types-v2.js";
import type { AnyEvent } from "./events-of-type.js";
import type { EvidenceRow, RecoveryEvidence } from "./types.js";

interface Positioned<P> {
  /** Position in sequence order: "after" compares positions. */
  readonly index: number;
  readonly elapsedMs: number;
  readonly payload: P;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Whether an OPERATION_SUCCEEDED counts as a recovery: a status below 400, or no status at all
 * (an MCP success, schema 2 only).
 */
export function isRecoverySuccess(status: number | null): boolean {
  return status === null || status < 400;
}

/**
 * One row per fault-related OPERATION_FAILED, in sequence order (analysis.md). A row is
 * resolved by the first RETRY_OBSERVED after the failure that names it, has its fingerprint,
 * whose operation later succeeds (same fingerprint, status < 400) and has not resolved an
 * earlier row. Latency = success elapsed − failure elapsed, never negative.
 */
export function computeRecovery(events: readonly AnyEvent[]): RecoveryEvidence {
  const failures: Positioned<{ operation_id: string; fingerprint: string }>[] = [];
  const retriesByFailedId = new Map<string, Positioned<RetryObservedPayload>[]>();
  const successesById = new Map<
    string,
    Positioned<OperationSucceededPayload | OperationSucceededPayloadV2>[]
  >();
  events.forEach((event, index) => {
    const base = { index, elapsedMs: event.elapsed_ms };
    const { payload } = event;
    if (payload.kind === "OPERATION_FAILED" && payload.fault_related) failures.push({ ...base, payload });
    else if (payload.kind === "RETRY_OBSERVED")
      push(retriesByFailedId, payload.retry_of_operation_id, { ...base, payload });
    else if (payload.kind === "OPERATION_SUCCEEDED")
      push(successesById, payload.operation_id, { ...base, payload });
  });

  const usedRetries = new Set<string>();
  const evidence = failures.map((failure): EvidenceRow => {
    const { operation_id: failedId, fingerprint } = failure.payload;
    for (const retry of retriesByFailedId.get(failedId) ?? []) {
      const retryId = retry.payload.operation_id;
      if (
        retry.index <= failure.index ||
        retry.payload.fingerprint !== fingerprint ||
        usedRetries.has(retryId)
      ) {
        continue;
      }
      const success = successesById
        .get(retryId)
        ?.find(
          (s) =>
            s.index > retry.index &&
            s.payload.fingerprint === fingerprint &&
            isRecoverySuccess(s.payload.status_code),
        );
      if (success === undefined) continue;
      usedRetries.add(retryId);
      return {
        failed_operation_id: failedId,
        retry_operation_id: retryId,
        recovery_latency_ms: Math.max(0, success.elapsedMs - failure.elapsedMs),
      };
    }
    return { failed_operation_id: failedId, retry_operation_id: null, recovery_latency_ms: null };
  });

  return {
    required: evidence.length,
    successful: evidence.filter((row) => row.retry_operation_id !== null).length,
    evidence,
  };
}
