import type { OperationRecord, Timeline } from "../events/timeline.js";
import type { CheckDefinition, DuplicateWriteFinding } from "./types.js";

const WRITE_METHODS = new Set(["POST", "PATCH"]);

/** A POST or PATCH that failed `injected_response_lost` after the upstream accepted it (< 400). */
function isLostWrite(op: Pick<OperationRecord, "observed" | "failure">): boolean {
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
  find: (timeline: Timeline) => {
    const findings: DuplicateWriteFinding[] = [];
    const operations = [...timeline.operations.values()];
    for (const lost of operations.filter(isLostWrite)) {
      const lostAt = lost.failure?.index ?? 0;
      const { dependency, fingerprint, idempotency_key_hash: key } = lost.observed?.payload ?? {};
      for (const later of operations) {
        const observed = later.observed;
        const status = later.success?.payload.status_code ?? null;
        if (observed === null || observed.index <= lostAt || status === null || status >= 400) continue;
        if (observed.payload.dependency !== dependency || observed.payload.fingerprint !== fingerprint)
          continue;
        if (key != null && observed.payload.idempotency_key_hash === key) continue;
        findings.push({ operation_id: lost.id, duplicate_operation_id: later.id });
      }
    }
    return findings;
  },
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
