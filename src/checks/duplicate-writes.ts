import type { OperationRecord, Timeline } from "../analysis/v2/timeline.js";
import type { ChecksConfig } from "../scenario/types-v2.js";
import { writeMatcher } from "./scope.js";
import type { CheckDefinition, DuplicateWriteFinding } from "./types.js";

/** A write (see scope.ts) that failed `injected_response_lost` after the upstream accepted it (< 400). */
function isLostWrite(op: OperationRecord, isWrite: ReturnType<typeof writeMatcher>): boolean {
  const observed = op.observed?.payload;
  const failure = op.failure?.payload;
  return (
    observed !== undefined &&
    isWrite(observed) &&
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
  find: (timeline: Timeline, config: ChecksConfig["duplicate_writes"]) => {
    const findings: DuplicateWriteFinding[] = [];
    const operations = [...timeline.operations.values()];
    const isWrite = writeMatcher(config);
    for (const lost of operations.filter((op) => isLostWrite(op, isWrite))) {
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
  describe: (finding, _config, label) =>
    `operation ${label(finding.duplicate_operation_id)} repeated the write of operation ${label(finding.operation_id)}, whose response was lost, without the same idempotency key`,
};
