import { LEGACY_PAYLOAD_FIELDS } from "./legacy/payload-fields.js";
import type { LegacyEventPayload } from "./legacy/types.js";
import type { EventPayload } from "./types.js";

/** How schema 1 writes a key whose internal value it cannot hold (schema 1 has http only). */
const SCHEMA_1_VALUE: Readonly<Record<string, (value: unknown, kind: string) => unknown>> = {
  protocol: () => "http",
  query_hash: (value) => value ?? "",
  // An operation without a status (never one of an http dependency) succeeds with status 0.
  status_code: (value, kind) => (kind === "OPERATION_SUCCEEDED" ? (value ?? 0) : value),
};

/**
 * An internal (schema-2) payload in the form events schema 1 writes it, or null for an event
 * schema 1 does not have (it is not written). A schema-1 run has one unnamed dependency and one
 * fault without an id: the dependency name, the fault id and every key schema 1 does not record
 * are dropped, the other keys keep their place (the key lists of legacy/payload-fields.ts). Pure;
 * a payload already in schema-1 form gives an equal one. See docs/events.md.
 */
export function toSchema1Payload(payload: LegacyEventPayload | EventPayload): LegacyEventPayload | null {
  const { kind } = payload;
  if (!Object.hasOwn(LEGACY_PAYLOAD_FIELDS, kind)) return null;
  const internal = new Map(Object.entries(payload));
  const keys = Object.keys(LEGACY_PAYLOAD_FIELDS[kind as LegacyEventPayload["kind"]]);
  const entries = keys.map((key) => {
    const toSchema1 = SCHEMA_1_VALUE[key];
    return [key, toSchema1 === undefined ? internal.get(key) : toSchema1(internal.get(key), kind)];
  });
  return Object.fromEntries([["kind", kind], ...entries]) as LegacyEventPayload;
}
