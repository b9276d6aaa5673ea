import type { OccurrenceScheduleTrigger, SeededProbabilityTrigger } from "../scenario/types.js";
import { isSelected, probabilityThreshold } from "./probability-selector.js";
import type { TriggerState } from "./types.js";

/** A trigger that selects by the occurrence's number alone (the first matching operation is 1). */
function byOccurrence(selects: (occurrence: number) => boolean): TriggerState {
  let occurrence = 0;
  return {
    decide: () => selects(++occurrence),
    countTokens: null,
    secondsUntilRoom: null,
  };
}

/** Occurrence k is selected exactly when k is in the schedule (docs/triggers.md, "occurrences"). */
export function createOccurrenceState(trigger: OccurrenceScheduleTrigger): TriggerState {
  const scheduled = new Set(trigger.occurrences);
  return byOccurrence((occurrence) => scheduled.has(occurrence));
}

/**
 * The seeded probability window (docs/triggers.md): occurrences outside
 * `start_occurrence..end_occurrence` are never selected; inside it the seeded selector decides.
 */
export function createProbabilityState(trigger: SeededProbabilityTrigger): TriggerState {
  const threshold = probabilityThreshold(trigger.probabilityMillionths);
  const { startOccurrence, endOccurrence } = trigger.window;
  return byOccurrence(
    (occurrence) =>
      occurrence >= startOccurrence &&
      occurrence <= endOccurrence &&
      isSelected(trigger.seed, occurrence, threshold),
  );
}
