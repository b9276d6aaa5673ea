/**
 * Recovery rows of v2/evidence.md: one per fault-related OPERATION_FAILED, attributed to a fault,
 * resolved by `fifo` (exactly the schema-1 rule) or `chain`.
 */

import type { At, OperationRecord, Timeline } from "../../events/timeline.js";
import type { OperationFailedPayloadV2 } from "../../events/types-v2.js";
import type { FaultV2, RecoveryMode } from "../../scenario/types-v2.js";
import { computeRecovery, isRecoverySuccess } from "../recovery-evidence.js";
import type { RecoveryRowV2 } from "./types.js";

export interface RecoveryRows {
  readonly rows: readonly RecoveryRowV2[];
  /** Fault-related failures that no configured fault can be attributed to (evidence inconsistent). */
  readonly unattributed: readonly string[];
}

interface Resolution {
  readonly retryOperationId: string | null;
  readonly recoveryLatencyMs: number | null;
}

const UNRESOLVED: Resolution = { retryOperationId: null, recoveryLatencyMs: null };

/**
 * The fault a failure belongs to: the fault injected into its operation, else the one injected
 * latest, before the failure, into another operation of its retry chain (a failed retry that was
 * not injected itself belongs to the fault that started the chain).
 */
function faultOf(failure: At<OperationFailedPayloadV2>, timeline: Timeline): string | null {
  const own = timeline.operations.get(failure.payload.operation_id)?.injected;
  if (own != null) return own.faultId;
  let latest: { index: number; faultId: string } | null = null;
  for (const member of timeline.chainOf(failure.payload.operation_id)) {
    const injected = member.injected;
    if (injected === null || injected.index > failure.index) continue;
    if (latest === null || injected.index > latest.index) latest = injected;
  }
  return latest?.faultId ?? null;
}

/** Whether an operation's success counts as a recovery: status < 400 (HTTP), any success (MCP). */
function recovered(op: OperationRecord): boolean {
  const success = op.success;
  if (success === null) return false;
  if (op.observed?.payload.protocol === "mcp") return true;
  return success.payload.status_code !== null && isRecoverySuccess(success.payload.status_code);
}

/**
 * `chain`: the earliest member of the failure's retry chain whose qualifying success comes after
 * the failure, in sequence order. One success may resolve several rows.
 */
function chainResolution(failure: At<OperationFailedPayloadV2>, timeline: Timeline): Resolution {
  let best: OperationRecord | null = null;
  for (const member of timeline.chainOf(failure.payload.operation_id)) {
    if (!recovered(member) || (member.success?.index ?? -1) <= failure.index) continue;
    if (best === null || (member.success?.index ?? 0) < (best.success?.index ?? 0)) best = member;
  }
  if (best?.success == null) return UNRESOLVED;
  return {
    retryOperationId: best.id,
    recoveryLatencyMs: Math.max(0, best.success.elapsedMs - failure.elapsedMs),
  };
}

/** The first RETRY_OBSERVED after the failure that links into its retry chain, if any. */
function retriedBy(failure: At<OperationFailedPayloadV2>, timeline: Timeline): string | null {
  let first: { index: number; id: string } | null = null;
  for (const member of timeline.chainOf(failure.payload.operation_id)) {
    const retry = member.retry;
    if (retry === null || retry.index <= failure.index) continue;
    if (first === null || retry.index < first.index) first = { index: retry.index, id: member.id };
  }
  return first?.id ?? null;
}

/** The rows of a run, in sequence order of their failures. */
export function recoveryRows(
  faults: readonly FaultV2[],
  mode: RecoveryMode,
  timeline: Timeline,
): RecoveryRows {
  const failures: At<OperationFailedPayloadV2>[] = [];
  timeline.events.forEach((event, index) => {
    const { payload } = event;
    if (payload.kind === "OPERATION_FAILED" && payload.fault_related)
      failures.push({ index, elapsedMs: event.elapsed_ms, payload });
  });
  // The schema-1 rule gives one row per fault-related failure in this same order.
  const fifo = mode === "fifo" ? computeRecovery(timeline.events).evidence : [];
  const expectOf = new Map(faults.map((fault) => [fault.id, fault.expect]));

  const rows: RecoveryRowV2[] = [];
  const unattributed: string[] = [];
  failures.forEach((failure, position) => {
    const faultId = faultOf(failure, timeline);
    const expect = faultId === null ? undefined : expectOf.get(faultId);
    if (faultId === null || expect === undefined) {
      unattributed.push(failure.payload.operation_id);
      return;
    }
    const fifoRow = fifo[position];
    const resolution =
      mode === "chain"
        ? chainResolution(failure, timeline)
        : {
            retryOperationId: fifoRow?.retry_operation_id ?? null,
            recoveryLatencyMs: fifoRow?.recovery_latency_ms ?? null,
          };
    rows.push({
      faultId,
      failedOperationId: failure.payload.operation_id,
      ...resolution,
      failureKind: failure.payload.failure_kind,
      expect,
      retriedBy: retriedBy(failure, timeline),
    });
  });
  return { rows, unattributed };
}
