import type { Trigger } from "../scenario/types.js";
import { createOccurrenceState } from "./occurrence.js";
import { createProbabilityState } from "./probability.js";
import type { TriggerState } from "./types.js";

export type { TriggerState } from "./types.js";

/** A fresh trigger state (counter at zero) for one fault's trigger. */
export function createTriggerState(trigger: Trigger): TriggerState {
  switch (trigger.kind) {
    case "occurrence_schedule":
      return createOccurrenceState(trigger);
    case "seeded_probability":
      return createProbabilityState(trigger);
  }
}
