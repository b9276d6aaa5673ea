import type { ChecksConfig } from "../scenario/types.js";
import { writeMatcher } from "./scope.js";
import type { CheckDefinition, OperationFacts } from "./types.js";

/** Each configuration's write predicate, compiled once. */
const matchers = new WeakMap<ChecksConfig["duplicate_writes"], ReturnType<typeof writeMatcher>>();

function matcherOf(config: ChecksConfig["duplicate_writes"]): ReturnType<typeof writeMatcher> {
  let matcher = matchers.get(config);
  if (matcher === undefined) {
    matcher = writeMatcher(config);
    matchers.set(config, matcher);
  }
  return matcher;
}

/** A write (see scope.ts) that failed `injected_response_lost` after the upstream accepted it (< 400). */
function isLostWrite(op: OperationFacts, config: ChecksConfig["duplicate_writes"]): boolean {
  const observed = op.observed?.payload;
  const failure = op.failure?.payload;
  return (
    observed !== undefined &&
    matcherOf(config)(observed) &&
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
  describe: (finding, _config, label) =>
    `operation ${label(finding.duplicate_operation_id)} repeated the write of operation ${label(finding.operation_id)}, whose response was lost, without the same idempotency key`,
  lostWrite: isLostWrite,
  repeat: (lost, later) => {
    const status = later.success?.payload.status_code ?? null;
    if (status === null || status >= 400) return null;
    const key = lost.observed?.payload.idempotency_key_hash;
    if (key != null && later.observed?.payload.idempotency_key_hash === key) return null;
    return { operation_id: lost.id, duplicate_operation_id: later.id };
  },
};
