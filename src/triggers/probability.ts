import type { SeededProbabilityTrigger } from "../scenario/types.js";
import { isSelected, probabilityThreshold } from "./probability-selector.js";
import type { TriggerState } from "./types.js";

/**
 * The seeded probability window (docs/triggers.md): occurrences outside
 * `start_occurrence..end_occurrence` are never selected; inside it the seeded selector decides.
 */
export function createProbabilityState(trigger: SeededProbabilityTrigger): TriggerState {
  const threshold = probabilityThreshold(trigger.probabilityMillionths);
  const { startOccurrence, endOccurrence } = trigger.window;
  let occurrence = 0;
  return {
    decide() {
      occurrence += 1;
      if (occurrence < startOccurrence || occurrence > endOccurrence) return false;
      return isSelected(trigger.seed, occurrence, threshold);
    },
    countTokens: null,
    secondsUntilRoom: null,
  };
}
