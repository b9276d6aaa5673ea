/**
 * Reads a fault's trigger object (docs/reports.md, "Trigger evidence"): one reader per kind, each
 * with the keys its object has after `kind`. Schema 3 knows the schedule and the probability
 * window; schema 4 adds the outage and the quota.
 */
import { invalidAt } from "./errors.js";
import { isJsonObject, type StrictObject } from "./strict-json.js";
import type { ReportTriggerV3 } from "./types.js";
import type { ReportTriggerV4 } from "./v4/lasting-trigger.js";

type Kind = ReportTriggerV4["kind"];
type Fields<K extends Kind> = Omit<Extract<ReportTriggerV4, { kind: K }>, "kind">;

interface KindReader<K extends Kind> {
  readonly keys: readonly string[];
  readonly read: (trigger: StrictObject) => Fields<K>;
}

const READERS: { readonly [K in Kind]: KindReader<K> } = {
  occurrence_schedule: {
    keys: ["scheduled_occurrences", "completed_occurrences", "completed"],
    read: (trigger) => ({
      scheduled_occurrences: trigger.integerList("scheduled_occurrences"),
      completed_occurrences: trigger.integerList("completed_occurrences"),
      completed: trigger.boolean("completed"),
    }),
  },
  seeded_probability: {
    keys: ["probability", "seed", "window", "evaluated_occurrences", "selected_occurrences", "completed"],
    read: (trigger) => {
      const window = trigger.object("window", ["start_occurrence", "end_occurrence"]);
      return {
        probability: trigger.number("probability"),
        seed: trigger.bigInteger("seed"),
        window: {
          start_occurrence: window.integer("start_occurrence"),
          end_occurrence: window.integer("end_occurrence"),
        },
        evaluated_occurrences: trigger.integer("evaluated_occurrences"),
        selected_occurrences: trigger.integerList("selected_occurrences"),
        completed: trigger.boolean("completed"),
      };
    },
  },
  outage: {
    keys: ["start_ms", "duration_ms", "selected", "first_selected_ordinal", "last_selected_ordinal"],
    read: (trigger) => ({
      start_ms: trigger.integer("start_ms"),
      duration_ms: trigger.integer("duration_ms"),
      selected: trigger.integer("selected"),
      first_selected_ordinal: trigger.nullableInteger("first_selected_ordinal"),
      last_selected_ordinal: trigger.nullableInteger("last_selected_ordinal"),
    }),
  },
  quota: {
    keys: ["unit", "limit", "per_ms", "counted", "selected"],
    read: (trigger) => ({
      unit: trigger.oneOf("unit", ["requests", "tokens"]),
      limit: trigger.integer("limit"),
      per_ms: trigger.integer("per_ms"),
      counted: trigger.integer("counted"),
      selected: trigger.integer("selected"),
    }),
  },
};

/** The (non-null) trigger object under the key `trigger` of `owner`, of one of `kinds`. */
function readTriggerOf(owner: StrictObject, kinds: readonly Kind[]): ReportTriggerV4 {
  const raw = owner.raw("trigger");
  const kind = isJsonObject(raw) ? raw.kind : undefined;
  if (!kinds.includes(kind as Kind)) {
    throw invalidAt(isJsonObject(raw) ? `${owner.at("trigger")}.kind` : owner.at("trigger"));
  }
  const reader = READERS[kind as Kind] as KindReader<Kind>;
  return { kind, ...reader.read(owner.object("trigger", ["kind", ...reader.keys])) } as ReportTriggerV4;
}

/** Schema 3's trigger object: a schedule or a probability window. */
export function readScheduleOrWindow(owner: StrictObject): ReportTriggerV3 {
  return readTriggerOf(owner, ["occurrence_schedule", "seeded_probability"]) as ReportTriggerV3;
}

/** A schema-4 fault's trigger object: schema 3's forms, an outage or a quota. */
export function readFaultTrigger(owner: StrictObject): ReportTriggerV4 {
  return readTriggerOf(owner, Object.keys(READERS) as Kind[]);
}
