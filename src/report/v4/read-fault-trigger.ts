/** Reads a schema-2 fault's trigger object: schema 3's forms, an outage or a quota (docs/reports.md). */
import { readTrigger } from "../shape-common.js";
import { isJsonObject, type StrictObject } from "../strict-json.js";
import type { ReportTriggerV4 } from "./lasting-trigger.js";

const OUTAGE_KEYS = [
  "kind",
  "start_ms",
  "duration_ms",
  "selected",
  "first_selected_ordinal",
  "last_selected_ordinal",
];
const QUOTA_KEYS = ["kind", "unit", "limit", "per_ms", "counted", "selected"];

export function readFaultTrigger(owner: StrictObject): ReportTriggerV4 {
  const raw = owner.raw("trigger");
  const kind = isJsonObject(raw) ? raw.kind : undefined;
  if (kind === "outage") {
    const trigger = owner.object("trigger", OUTAGE_KEYS);
    return {
      kind,
      start_ms: trigger.integer("start_ms"),
      duration_ms: trigger.integer("duration_ms"),
      selected: trigger.integer("selected"),
      first_selected_ordinal: trigger.nullableInteger("first_selected_ordinal"),
      last_selected_ordinal: trigger.nullableInteger("last_selected_ordinal"),
    };
  }
  if (kind === "quota") {
    const trigger = owner.object("trigger", QUOTA_KEYS);
    return {
      kind,
      unit: trigger.oneOf("unit", ["requests", "tokens"]),
      limit: trigger.integer("limit"),
      per_ms: trigger.integer("per_ms"),
      counted: trigger.integer("counted"),
      selected: trigger.integer("selected"),
    };
  }
  return readTrigger(owner);
}
