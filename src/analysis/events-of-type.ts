import type { AgentChaosEvent } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";

/** An event of either schema: helpers that only look at shared types serve both analyzers. */
export type AnyEvent = AgentChaosEvent | AgentChaosEventV2;

/** The event `E` narrowed to type `T` (its payload included). */
export type EventOf<E extends AnyEvent, T extends E["type"]> = E & {
  readonly type: T;
  readonly payload: Extract<E["payload"], { kind: T }>;
};

/** The events of one type, in the given (sequence) order. */
export function eventsOfType<E extends AnyEvent, T extends E["type"]>(
  events: readonly E[],
  type: T,
): EventOf<E, T>[] {
  return events.filter((event): event is EventOf<E, T> => event.type === type);
}

/** The payload of the last event of one type, or null. */
export function lastPayload<E extends AnyEvent, T extends E["type"]>(
  events: readonly E[],
  type: T,
): Extract<E["payload"], { kind: T }> | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type === type) return event.payload as Extract<E["payload"], { kind: T }>;
  }
  return null;
}
