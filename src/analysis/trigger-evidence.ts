import type { AgentChaosEvent } from "../events/types.js";
import { compileTarget } from "../scenario/target.js";
import type { Fault, OccurrenceScheduleTrigger, SeededProbabilityTrigger } from "../scenario/types.js";
import { selectedOccurrences } from "../triggers/probability-selector.js";
import { eventsOfType } from "./events-of-type.js";
import type { ProbabilityEvidence, ScheduleEvidence, TriggerEvidence } from "./types.js";

/** Operation ids of the FAULT_INJECTED events, in sequence order. */
export function injectedOperationIds(events: readonly AgentChaosEvent[]): string[] {
  return eventsOfType(events, "FAULT_INJECTED").map((event) => event.payload.operation_id);
}

/**
 * Occurrence-schedule evidence from the number of selections (schema 1: injections): the first
 * min(selections, schedule length) scheduled ordinals are completed.
 */
export function scheduleEvidence(trigger: OccurrenceScheduleTrigger, selections: number): ScheduleEvidence {
  const scheduled = [...trigger.occurrences];
  const completed = scheduled.slice(0, Math.min(selections, scheduled.length));
  return {
    kind: "occurrence_schedule",
    scheduledOccurrences: scheduled,
    completedOccurrences: completed,
    completed: completed.length === scheduled.length,
  };
}

/**
 * The operation ids of the requests the trigger counted, in occurrence order: OPERATION_OBSERVED
 * events matching the target, leaving out operations rejected as `request_body_too_large`.
 */
function countedOperationIds(fault: Fault, events: readonly AgentChaosEvent[]): string[] {
  const matches = compileTarget(fault.target);
  const oversized = new Set(
    eventsOfType(events, "OPERATION_FAILED")
      .filter((event) => event.payload.failure_kind === "request_body_too_large")
      .map((event) => event.payload.operation_id),
  );
  return eventsOfType(events, "OPERATION_OBSERVED")
    .map((event) => event.payload)
    .filter((op) => matches(op.method, op.path) && !oversized.has(op.operation_id))
    .map((op) => op.operation_id);
}

/**
 * Probability-window evidence from the operation ids the trigger counted (in occurrence order)
 * and the ids it selected (schema 1: injected), in sequence order.
 */
export function probabilityEvidence(
  trigger: SeededProbabilityTrigger,
  counted: readonly string[],
  injectedIds: readonly string[],
): ProbabilityEvidence {
  const { startOccurrence: start, endOccurrence: end } = trigger.window;
  const windowSize = end - start + 1;
  const evaluated = Math.min(Math.max(counted.length - start + 1, 0), windowSize);
  const lastEvaluated = start + evaluated - 1;

  const expected = selectedOccurrences(trigger.seed, trigger.probabilityMillionths, start, lastEvaluated);
  const expectedIds = expected.map((ordinal) => counted[ordinal - 1]);

  const ordinalOf = new Map<string, number>();
  counted.forEach((id, index) => {
    if (!ordinalOf.has(id)) ordinalOf.set(id, index + 1);
  });
  const selected = new Set<number>();
  for (const id of injectedIds) {
    const ordinal = ordinalOf.get(id);
    if (ordinal !== undefined && ordinal >= start && ordinal <= lastEvaluated) selected.add(ordinal);
  }

  return {
    kind: "seeded_probability",
    probability: trigger.probability,
    seed: trigger.seed,
    window: { startOccurrence: start, endOccurrence: end },
    evaluatedOccurrences: evaluated,
    selectedOccurrences: [...selected].sort((a, b) => a - b),
    completed: evaluated === windowSize,
    consistent:
      injectedIds.length === expectedIds.length && injectedIds.every((id, i) => id === expectedIds[i]),
  };
}

/** Trigger evidence of analysis.md; null for a baseline (no fault configured). */
export function computeTriggerEvidence(
  fault: Fault | null,
  events: readonly AgentChaosEvent[],
): TriggerEvidence | null {
  if (fault === null) return null;
  return fault.trigger.kind === "occurrence_schedule"
    ? scheduleEvidence(fault.trigger, eventsOfType(events, "FAULT_INJECTED").length)
    : probabilityEvidence(fault.trigger, countedOperationIds(fault, events), injectedOperationIds(events));
}
