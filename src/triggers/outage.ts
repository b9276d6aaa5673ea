import type { OutageTrigger } from "../scenario/types.js";
import type { TriggerClock, TriggerState } from "./types.js";

/**
 * An outage (docs/triggers.md): a request is selected when it is observed `startMs` to
 * `startMs + durationMs` (end excluded) after `WORKLOAD_STARTED`, on the events' clock. Nothing
 * is selected before the workload started.
 */
export function createOutageState(trigger: OutageTrigger, clock: TriggerClock): TriggerState {
  const end = trigger.startMs + trigger.durationMs;
  return {
    decide() {
      const startedAt = clock.workloadStartedAt();
      if (startedAt === null) return false;
      const elapsed = clock.observedAt() - startedAt;
      return elapsed >= trigger.startMs && elapsed < end;
    },
    countTokens: null,
    secondsUntilRoom: null,
  };
}
