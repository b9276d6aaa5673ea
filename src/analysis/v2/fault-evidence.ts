/** Per-fault selections and trigger evidence of v2/evidence.md "Selections". */

import type { Timeline } from "../../events/timeline.js";
import type { FaultV2 } from "../../scenario/types-v2.js";
import { probabilityEvidence, scheduleEvidence } from "../trigger-evidence.js";
import type { TriggerEvidence } from "../types.js";
import { compileTargetV2 } from "./target.js";

export interface FaultSelections {
  /** Operation ids, in sequence order. */
  readonly selections: string[];
  injected: number;
  notApplied: number;
}

/**
 * The selections of every fault id the events name: a fault's FAULT_INJECTED events plus its
 * FAULT_NOT_APPLIED events with reason `another_fault_acted`.
 */
export function selectionsByFault(timeline: Timeline): ReadonlyMap<string, FaultSelections> {
  const byFault = new Map<string, FaultSelections>();
  const of = (faultId: string): FaultSelections => {
    let found = byFault.get(faultId);
    if (found === undefined) {
      found = { selections: [], injected: 0, notApplied: 0 };
      byFault.set(faultId, found);
    }
    return found;
  };
  for (const { payload } of timeline.events) {
    if (payload.kind === "FAULT_INJECTED") {
      const fault = of(payload.fault_id);
      fault.injected += 1;
      fault.selections.push(payload.operation_id);
    } else if (payload.kind === "FAULT_NOT_APPLIED") {
      const fault = of(payload.fault_id);
      fault.notApplied += 1;
      if (payload.reason === "another_fault_acted") fault.selections.push(payload.operation_id);
    }
  }
  return byFault;
}

/**
 * The operations a fault's trigger counted, in occurrence order: the OPERATION_OBSERVED events of
 * its dependency that match its target, leaving out operations rejected as `request_body_too_large`.
 */
export function countedOperationIds(fault: FaultV2, timeline: Timeline): string[] {
  const matches = compileTargetV2(fault.target);
  const counted: { id: string; index: number }[] = [];
  for (const op of timeline.operations.values()) {
    const observed = op.observed;
    if (observed === null || observed.payload.dependency !== fault.dependency) continue;
    if (!matches(observed.payload) || op.failure?.payload.failure_kind === "request_body_too_large") continue;
    counted.push({ id: op.id, index: observed.index });
  }
  return counted.sort((a, b) => a.index - b.index).map((op) => op.id);
}

/** Schema-1 trigger evidence, counted on the fault's selections. */
export function faultTriggerEvidence(
  fault: FaultV2,
  selections: readonly string[],
  timeline: Timeline,
): TriggerEvidence {
  return fault.trigger.kind === "occurrence_schedule"
    ? scheduleEvidence(fault.trigger, selections.length)
    : probabilityEvidence(fault.trigger, countedOperationIds(fault, timeline), selections);
}
