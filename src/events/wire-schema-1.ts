import { LEGACY_PAYLOAD_FIELDS } from "./legacy/payload-fields.js";
import type { LegacyEventPayload } from "./legacy/types.js";
import type { EventPayload } from "./types.js";

type ValueOf = (value: unknown, kind: string) => unknown;

/** How schema 1 writes a key whose internal value it cannot hold (schema 1 has http only). */
const SCHEMA_1_VALUE: Readonly<Record<string, ValueOf>> = {
  protocol: () => "http",
  query_hash: (value) => value ?? "",
  // An operation without a status (never one of an http dependency) succeeds with status 0.
  status_code: (value, kind) => (kind === "OPERATION_SUCCEEDED" ? (value ?? 0) : value),
};

/** Per schema-1 event kind, its payload keys in order, each with how schema 1 writes its value. */
const PLANS: ReadonlyMap<string, readonly (readonly [string, ValueOf | undefined])[]> = new Map(
  Object.entries(LEGACY_PAYLOAD_FIELDS).map(([kind, fields]) => [
    kind,
    Object.keys(fields).map((key) => [key, SCHEMA_1_VALUE[key]] as const),
  ]),
);

/**
 * An internal (schema-2) payload in the form events schema 1 writes it, or null for an event
 * schema 1 does not have (it is not written). A schema-1 run has one unnamed dependency and one
 * fault without an id: the dependency name, the fault id and every key schema 1 does not record
 * are dropped, the other keys keep their place (the key lists of legacy/payload-fields.ts). Pure;
 * a payload already in schema-1 form gives an equal one. See docs/events.md.
 */
export function toSchema1Payload(payload: LegacyEventPayload | EventPayload): LegacyEventPayload | null {
  const { kind } = payload;
  const plan = PLANS.get(kind);
  if (plan === undefined) return null;
  const source = payload as unknown as Readonly<Record<string, unknown>>;
  const wire: Record<string, unknown> = { kind };
  for (const [key, toSchema1] of plan)
    wire[key] = toSchema1 === undefined ? source[key] : toSchema1(source[key], kind);
  return wire as LegacyEventPayload;
}
