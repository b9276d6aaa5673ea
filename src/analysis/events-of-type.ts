import type { AgentChaosEvent, EventType, PayloadOf } from "../events/types.js";

/** The events of one type, in the given (sequence) order. */
export function eventsOfType<T extends EventType>(
  events: readonly AgentChaosEvent[],
  type: T,
): AgentChaosEvent<PayloadOf<T>>[] {
  return events.filter((event): event is AgentChaosEvent<PayloadOf<T>> => event.type === type);
}

/** The payload of the last event of one type, or null. */
export function lastPayload<T extends EventType>(
  events: readonly AgentChaosEvent[],
  type: T,
): PayloadOf<T> | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type === type) return event.payload as PayloadOf<T>;
  }
  return null;
}
