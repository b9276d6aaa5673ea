/** The report's trigger object of an outage or a quota (docs/reports.md, "Trigger evidence"). */
import type { OutageEvidence, QuotaEvidence, TriggerEvidence } from "../../analysis/types.js";
import { probabilityTrigger } from "../build.js";
import { type SnakeCased, snakeCased } from "../snake-cased.js";
import type { ReportTriggerV3 } from "../types.js";

/** Ordinals among the fault's targeted operations (null when nothing was selected). */
export type ReportOutageTrigger = SnakeCased<OutageEvidence>;

/** What it counted: requests let through, or the tokens of their answers. */
export type ReportQuotaTrigger = SnakeCased<QuotaEvidence>;

/** A schema-2 fault's trigger object: schema 3's, an outage's or a quota's. */
export type ReportTriggerV4 = ReportTriggerV3 | ReportOutageTrigger | ReportQuotaTrigger;

/** A fault's trigger evidence as the report writes it. */
export function reportTrigger(evidence: TriggerEvidence): ReportTriggerV4 {
  return evidence.kind === "seeded_probability" ? probabilityTrigger(evidence) : snakeCased(evidence);
}

/** How many operations the trigger selected (what rule 9 and the selection count rule read). */
export function selectionCount(trigger: ReportTriggerV4): number {
  switch (trigger.kind) {
    case "occurrence_schedule":
      return trigger.completed_occurrences.length;
    case "seeded_probability":
      return trigger.selected_occurrences.length;
    case "outage":
    case "quota":
      return trigger.selected;
  }
}

/** The terminal summary's words for an outage or a quota: `outage 2000+3000 ms, selected 4 (ordinals 3-6)`. */
export function lastingTriggerSummary(trigger: ReportOutageTrigger | ReportQuotaTrigger): string {
  if (trigger.kind === "outage") {
    const { first_selected_ordinal: first, last_selected_ordinal: last } = trigger;
    const ordinals = first === null || last === null ? "" : ` (ordinals ${first}-${last})`;
    return `outage ${trigger.start_ms}+${trigger.duration_ms} ms, selected ${trigger.selected}${ordinals}`;
  }
  return `quota ${trigger.limit} ${trigger.unit}/${trigger.per_ms} ms, counted ${trigger.counted}, selected ${trigger.selected}`;
}
