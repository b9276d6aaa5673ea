/** Trigger evidence (docs/evidence.md, "Trigger evidence"). */
import type { OccurrenceScheduleTrigger, SeededProbabilityTrigger } from "../scenario/types.js";
import { selectedOccurrences } from "../triggers/probability-selector.js";
import type { ProbabilityEvidence, ScheduleEvidence } from "./types.js";

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
