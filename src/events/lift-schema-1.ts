/**
 * A schema-1 event lifted into the internal (schema-2 shaped) model, so one analysis judges both
 * schemas. Pure. A schema-1 run has one dependency and at most one fault, which the internal
 * model names `SCHEMA_1_DEPENDENCY` and `SCHEMA_1_FAULT_ID`; every field schema 1 does not record
 * takes the value that means "not recorded" (`null`, `false`). Envelope and payload keys keep the
 * internal model's order (the key lists of payload-fields.ts). See docs/events.md.
 */
import {
  LEGACY_DEPENDENCY as SCHEMA_1_DEPENDENCY,
  LEGACY_FAULT_ID as SCHEMA_1_FAULT_ID,
} from "../scenario/legacy/upgrade.js";
import type { LegacyEvent, LegacyEventPayload } from "./legacy/types.js";
import { PAYLOAD_FIELDS } from "./payload-fields.js";
import type { AgentChaosEvent, EventPayload } from "./types.js";

/** The names the upgraded schema-1 scenario gives its one dependency and its one fault. */
export { SCHEMA_1_DEPENDENCY, SCHEMA_1_FAULT_ID };

/** The internal value of a key schema 1 does not record; `null` for every key not listed. */
const NOT_RECORDED: Readonly<Record<string, unknown>> = {
  dependency: SCHEMA_1_DEPENDENCY,
  fault_id: SCHEMA_1_FAULT_ID,
  closed_by_client: false,
};

/** Each type's internal payload keys, in order, listed once rather than for every event. */
const PAYLOAD_KEYS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(PAYLOAD_FIELDS).map(([type, fields]) => [type, Object.keys(fields)]),
);

function liftPayload(payload: LegacyEventPayload): EventPayload {
  const recorded = payload as Readonly<Record<string, unknown>>;
  const lifted: Record<string, unknown> = { kind: payload.kind };
  for (const key of PAYLOAD_KEYS.get(payload.kind) as readonly string[]) {
    lifted[key] = Object.hasOwn(recorded, key) ? recorded[key] : (NOT_RECORDED[key] ?? null);
  }
  return lifted as unknown as EventPayload;
}

/** The internal-model event of a schema-1 event (the input is not modified). */
export function liftSchema1Event(event: LegacyEvent): AgentChaosEvent {
  // The envelope is schema 1's: spreading it keeps every key in its place.
  return { ...event, schema_version: 2, payload: liftPayload(event.payload) };
}
