import type { CheckDefinition, OperationFacts } from "./types.js";

const WRITE_METHODS = new Set(["POST", "PATCH"]);

/** A POST or PATCH that failed `injected_response_lost` after the upstream accepted it (< 400). */
function isLostWrite(op: OperationFacts): boolean {
  const observed = op.observed?.payload;
  const failure = op.failure?.payload;
  return (
    observed?.protocol === "http" &&
    WRITE_METHODS.has(observed.method.toUpperCase()) &&
    failure?.failure_kind === "injected_response_lost" &&
    failure.upstream_status !== null &&
    failure.upstream_status < 400
  );
}

/**
 * `duplicate_writes`: for each lost write, every operation of the same dependency and
 * fingerprint, observed after the loss, that succeeded with a status below 400 — unless both
 * carry the same non-null `idempotency_key_hash`.
 */
export const duplicateWritesCheck: CheckDefinition<"duplicate_writes"> = {
  reason: "DUPLICATE_WRITE",
  describe: (finding) =>
    `operation ${finding.duplicate_operation_id} repeated the write of operation ${finding.operation_id}, whose response was lost, without the same idempotency key`,
  lostWrite: isLostWrite,
  repeat: (lost, later) => {
    const status = later.success?.payload.status_code ?? null;
    if (status === null || status >= 400) return null;
    const key = lost.observed?.payload.idempotency_key_hash;
    if (key != null && later.observed?.payload.idempotency_key_hash === key) return null;
    return { operation_id: lost.id, duplicate_operation_id: later.id };
  },
};
