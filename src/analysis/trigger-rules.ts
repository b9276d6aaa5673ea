/**
 * Rules 8, 11, 12 and 13 of docs/evidence.md, the same in both verdict tables: a probability
 * window that contradicts its selector, a schedule with more injections than it configured, and a
 * schedule or a window that did not complete. One diagnostic per fault that breaks the rule;
 * `about` words it (the internal model names the fault, schema 1 has only one).
 */
import { DIAGNOSTICS, scheduleIncomplete, tooManyInjections, windowIncomplete } from "./diagnostics.js";
import type { ConfiguredFault } from "./evidence.js";
import type { TriggerEvidence } from "./types.js";
import type { Verdict } from "./verdict.js";

type About = (faultId: string, sentence: string) => string;
type FaultRule = (facts: { readonly faults: readonly ConfiguredFault[] }) => Verdict | undefined;
/** The sentence about a fault's trigger evidence and selection count, or null when the rule holds. */
type Sentence = (trigger: TriggerEvidence, selections: number) => string | null;

function faultRule(about: About, reasonCode: string, sentence: Sentence): FaultRule {
  return ({ faults }) => {
    const diagnostics = faults.flatMap(({ fault, evidence }) => {
      const said = sentence(evidence.trigger, evidence.selections.length);
      return said === null ? [] : [about(fault.id, said)];
    });
    return diagnostics.length === 0 ? undefined : { result: "FAILED", reasonCode, diagnostics };
  };
}

export function triggerRules(about: About) {
  return {
    /* 8 */ contradicted: faultRule(about, "INTERNAL_ERROR", (t) =>
      t.kind === "seeded_probability" && !t.consistent ? DIAGNOSTICS.probabilityContradicted : null,
    ),
    /* 11 */ tooManyInjections: faultRule(about, "INTERNAL_ERROR", (t, selections) =>
      t.kind === "occurrence_schedule" && selections > t.scheduledOccurrences.length
        ? tooManyInjections(t.scheduledOccurrences.length, selections)
        : null,
    ),
    /* 12 */ scheduleIncomplete: faultRule(about, "FAULT_SCHEDULE_INCOMPLETE", (t) =>
      t.kind === "occurrence_schedule" && !t.completed
        ? scheduleIncomplete(t.scheduledOccurrences.length, t.completedOccurrences.length)
        : null,
    ),
    /* 13 */ windowIncomplete: faultRule(about, "TRIGGER_WINDOW_INCOMPLETE", (t) =>
      t.kind === "seeded_probability" && !t.completed
        ? windowIncomplete(t.window.endOccurrence - t.window.startOccurrence + 1, t.evaluatedOccurrences)
        : null,
    ),
  } as const;
}
