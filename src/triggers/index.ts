import type { Trigger } from "../scenario/types.js";
import { clockStartedNow } from "./clock.js";
import { createOccurrenceState, createProbabilityState } from "./occurrence.js";
import { createOutageState } from "./outage.js";
import { createQuotaState } from "./quota.js";
import type { TriggerClock, TriggerState } from "./types.js";

export { clockStartedNow } from "./clock.js";
export type { TriggerClock, TriggerState } from "./types.js";

/** A fresh trigger state (counter at zero) for one fault's trigger. */
export function createTriggerState(trigger: Trigger, clock: TriggerClock = clockStartedNow()): TriggerState {
  switch (trigger.kind) {
    case "occurrence_schedule":
      return createOccurrenceState(trigger);
    case "seeded_probability":
      return createProbabilityState(trigger);
    case "outage":
      return createOutageState(trigger, clock);
    case "quota":
      return createQuotaState(trigger, clock);
  }
}
