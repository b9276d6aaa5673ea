/**
 * Reads a fault's trigger object (docs/reports.md, "Trigger evidence"): one reader per kind, each
 * with the keys its object has after `kind`. Schema 3 knows the schedule and the probability
 * window; schema 4 adds the outage and the quota.
 */
import { invalidAt } from "./errors.js";
import { FIELD, type Fields, isJsonObject, type StrictObject } from "./strict-json.js";
import type { ReportProbabilityWindow, ReportTriggerV3 } from "./types.js";
import type { ReportTriggerV4 } from "./v4/lasting-trigger.js";

type Kind = ReportTriggerV4["kind"];
type Body<K extends Kind> = Omit<Extract<ReportTriggerV4, { kind: K }>, "kind">;

const WINDOW: Fields<ReportProbabilityWindow> = {
  start_occurrence: FIELD.integer,
  end_occurrence: FIELD.integer,
};

/** Each kind's keys after `kind`, in file order, each with its reader. */
const BODIES: { readonly [K in Kind]: Fields<Body<K>> } = {
  occurrence_schedule: {
    scheduled_occurrences: FIELD.integerList,
    completed_occurrences: FIELD.integerList,
    completed: FIELD.boolean,
  },
  seeded_probability: {
    probability: (trigger, key) => trigger.number(key),
    seed: (trigger, key) => trigger.bigInteger(key),
    window: (trigger, key) => trigger.record(key, WINDOW),
    evaluated_occurrences: FIELD.integer,
    selected_occurrences: FIELD.integerList,
    completed: FIELD.boolean,
  },
  outage: {
    start_ms: FIELD.integer,
    duration_ms: FIELD.integer,
    selected: FIELD.integer,
    first_selected_ordinal: FIELD.nullableInteger,
    last_selected_ordinal: FIELD.nullableInteger,
  },
  quota: {
    unit: FIELD.oneOf(["requests", "tokens"]),
    limit: FIELD.integer,
    per_ms: FIELD.integer,
    counted: FIELD.integer,
    selected: FIELD.integer,
  },
};

/** The (non-null) trigger object under the key `trigger` of `owner`, of one of `kinds`. */
function readTriggerOf(owner: StrictObject, kinds: readonly Kind[]): ReportTriggerV4 {
  const raw = owner.raw("trigger");
  const kind = isJsonObject(raw) ? raw.kind : undefined;
  if (!kinds.includes(kind as Kind)) {
    throw invalidAt(isJsonObject(raw) ? `${owner.at("trigger")}.kind` : owner.at("trigger"));
  }
  const body = BODIES[kind as Kind] as unknown as Fields<Record<string, unknown>>;
  const trigger = owner.object("trigger", ["kind", ...Object.keys(body)]);
  // The window's keys are checked before any value of the trigger is read.
  if (kind === "seeded_probability") trigger.object("window", Object.keys(WINDOW));
  return { kind, ...trigger.read(body) } as ReportTriggerV4;
}

/** Schema 3's trigger object: a schedule or a probability window. */
export function readScheduleOrWindow(owner: StrictObject): ReportTriggerV3 {
  return readTriggerOf(owner, ["occurrence_schedule", "seeded_probability"]) as ReportTriggerV3;
}

/** A schema-4 fault's trigger object: schema 3's forms, an outage or a quota. */
export function readFaultTrigger(owner: StrictObject): ReportTriggerV4 {
  return readTriggerOf(owner, Object.keys(BODIES) as Kind[]);
}
