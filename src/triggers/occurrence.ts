import type { OccurrenceScheduleTrigger } from "../scenario/types.js";
import type { TriggerState } from "./types.js";

/** Occurrence k is selected exactly when k is in the schedule (docs/triggers.md, "occurrences"). */
export function createOccurrenceState(trigger: OccurrenceScheduleTrigger): TriggerState {
  const scheduled = new Set(trigger.occurrences);
  const last = Math.max(...trigger.occurrences);
  let occurrence = 0;
  return {
    decide() {
      occurrence += 1;
      return occurrence <= last && scheduled.has(occurrence);
    },
    countTokens: null,
    secondsUntilRoom: null,
  };
}
