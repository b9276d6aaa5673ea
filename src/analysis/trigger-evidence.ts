/** Trigger evidence (docs/evidence.md, "Trigger evidence"). */
import type {
  OccurrenceScheduleTrigger,
  OutageTrigger,
  QuotaTrigger,
  SeededProbabilityTrigger,
} from "../scenario/types.js";
import { selectedOccurrences } from "../triggers/probability-selector.js";
import type { OutageEvidence, ProbabilityEvidence, QuotaEvidence, ScheduleEvidence } from "./types.js";

/**
 * Occurrence-schedule evidence from the number of selections: the first
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
 * Probability-window evidence from how many operations the trigger counted, the ids of (at least)
 * the first min(that, window end) of them in occurrence order (ordinals past the window never
 * take part) and the ids it selected, in sequence order.
 */
export function probabilityEvidence(
  trigger: SeededProbabilityTrigger,
  countedTotal: number,
  counted: readonly string[],
  injectedIds: readonly string[],
): ProbabilityEvidence {
  const { startOccurrence: start, endOccurrence: end } = trigger.window;
  const windowSize = end - start + 1;
  const evaluated = Math.min(Math.max(countedTotal - start + 1, 0), windowSize);
  const lastEvaluated = start + evaluated - 1;

  const expected = selectedOccurrences(trigger.seed, trigger.probabilityMillionths, start, lastEvaluated);
  const expectedIds = expected.map((ordinal) => counted[ordinal - 1]);

  const ordinalOf = ordinals(counted);
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

/** The ordinal (1-based) of each counted operation id, its first count winning. */
function ordinals(counted: readonly string[]): Map<string, number> {
  const ordinalOf = new Map<string, number>();
  counted.forEach((id, index) => {
    if (!ordinalOf.has(id)) ordinalOf.set(id, index + 1);
  });
  return ordinalOf;
}

/**
 * Outage evidence: how many operations it selected and the first and last of their ordinals
 * among the operations it counted (its targeted operations, in observation order).
 */
export function outageEvidence(
  trigger: OutageTrigger,
  counted: readonly string[],
  selections: readonly string[],
): OutageEvidence {
  const ordinalOf = ordinals(counted);
  const selected = selections.flatMap((id) => {
    const ordinal = ordinalOf.get(id);
    return ordinal === undefined ? [] : [ordinal];
  });
  return {
    kind: "outage",
    startMs: trigger.startMs,
    durationMs: trigger.durationMs,
    selected: selections.length,
    firstSelectedOrdinal: selected.length === 0 ? null : Math.min(...selected),
    lastSelectedOrdinal: selected.length === 0 ? null : Math.max(...selected),
  };
}

/**
 * Quota evidence: a request quota counted every targeted operation it let through (counted
 * minus selected); a token quota the tokens recorded for it.
 */
export function quotaEvidence(
  trigger: QuotaTrigger,
  countedOperations: number,
  selections: readonly string[],
  countedTokens: number,
): QuotaEvidence {
  return {
    kind: "quota",
    unit: trigger.unit,
    limit: trigger.limit,
    perMs: trigger.perMs,
    counted: trigger.unit === "requests" ? Math.max(0, countedOperations - selections.length) : countedTokens,
    selected: selections.length,
  };
}
