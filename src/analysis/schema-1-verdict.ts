/**
 * The schema-1 verdict (docs/evidence.md, "Result and reason, schema 1"): a policy over the
 * evidence of a schema-1 plan (schema-1.ts). Rules 1–6 are the run rules of verdict.ts.
 */
import {
  DIAGNOSTICS,
  recoveryNotObserved,
  scheduleIncomplete,
  tooManyInjections,
  windowIncomplete,
} from "./diagnostics.js";
import type { RecoveryEvidence, TriggerEvidence } from "./types.js";
import { failed, RUN_RULES, type RunFacts, type Verdict } from "./verdict.js";

/** Everything the schema-1 table looks at, drawn from the evidence. */
export interface Schema1Facts extends RunFacts {
  /** FAULT_INJECTED operation ids in sequence order. */
  readonly injectedOperationIds: readonly string[];
  readonly recovery: RecoveryEvidence;
  /** null exactly when no fault is configured. */
  readonly trigger: TriggerEvidence | null;
}

type Rule = (facts: Schema1Facts) => Verdict | undefined;

const hasRepeats = (values: readonly string[]): boolean => new Set(values).size !== values.length;

/** The first rule that applies wins. */
const RULES: readonly Rule[] = [
  RUN_RULES.runError,
  RUN_RULES.notCompleted,
  RUN_RULES.interrupted,
  RUN_RULES.timedOut,
  RUN_RULES.exitCodeNotRecorded,
  RUN_RULES.exitCodeMismatch,
  RUN_RULES.duplicateSequences,
  /* 7 */ (f) =>
    f.trigger === null ? { result: "PASSED", reasonCode: "BASELINE_SUCCEEDED", diagnostics: [] } : undefined,
  /* 8 */ ({ trigger: t }) =>
    t?.kind === "seeded_probability" && !t.consistent
      ? failed("INTERNAL_ERROR", DIAGNOSTICS.probabilityContradicted)
      : undefined,
  /* 9 */ (f) =>
    f.injectedOperationIds.length === 0
      ? failed("FAULT_NOT_TRIGGERED", DIAGNOSTICS.faultNotTriggered)
      : undefined,
  /* 10 */ (f) =>
    hasRepeats(f.injectedOperationIds) ? failed("INTERNAL_ERROR", DIAGNOSTICS.duplicateInjection) : undefined,
  /* 11 */ ({ trigger: t, injectedOperationIds: ids }) =>
    t?.kind === "occurrence_schedule" && ids.length > t.scheduledOccurrences.length
      ? failed("INTERNAL_ERROR", tooManyInjections(t.scheduledOccurrences.length, ids.length))
      : undefined,
  /* 12 */ ({ trigger: t }) =>
    t?.kind === "occurrence_schedule" && !t.completed
      ? failed(
          "FAULT_SCHEDULE_INCOMPLETE",
          scheduleIncomplete(t.scheduledOccurrences.length, t.completedOccurrences.length),
        )
      : undefined,
  /* 13 */ ({ trigger: t }) =>
    t?.kind === "seeded_probability" && !t.completed
      ? failed(
          "TRIGGER_WINDOW_INCOMPLETE",
          windowIncomplete(t.window.endOccurrence - t.window.startOccurrence + 1, t.evaluatedOccurrences),
        )
      : undefined,
  /* 14 */ ({ recovery: r }) =>
    r.required === 0 ? { result: "PASSED", reasonCode: "FAULT_TOLERATED", diagnostics: [] } : undefined,
  /* 15 */ ({ recovery: r }) =>
    r.successful < r.required
      ? failed("RECOVERY_NOT_OBSERVED", recoveryNotObserved(r.required, r.successful))
      : undefined,
];

const RECOVERED: Verdict = { result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] };

/** The result, reason code and diagnostics: rules 1–15 in order, else rule 16. */
export function decideSchema1Verdict(facts: Schema1Facts): Verdict {
  for (const rule of RULES) {
    const verdict = rule(facts);
    if (verdict !== undefined) return verdict;
  }
  return RECOVERED;
}
