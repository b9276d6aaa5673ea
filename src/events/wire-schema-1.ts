import type { EventPayload } from "./types.js";
import type { EventPayloadV2 } from "./types-v2.js";

/** The runtime's events whose schema-1 form is the internal one without `dependency`. */
const NAMED_RUNTIME_EVENTS: ReadonlySet<string> = new Set([
  "DEPENDENCY_STARTED",
  "DEPENDENCY_READY",
  "INJECTOR_STARTED",
  "DEPENDENCY_STOPPED",
]);

/**
 * An internal (schema-2) payload in the form events schema 1 writes it: a schema-1 run has one
 * unnamed dependency, so the runtime's events drop its name (every other key keeps its place).
 * A payload already in schema-1 form is returned as it is. See docs/events.md.
 */
export function toSchema1Payload(payload: EventPayload | EventPayloadV2): EventPayload {
  if (NAMED_RUNTIME_EVENTS.has(payload.kind) && "dependency" in payload) {
    const { dependency: _dependency, ...rest } = payload;
    return rest as EventPayload;
  }
  return payload as EventPayload;
}
