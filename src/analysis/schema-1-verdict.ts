/**
 * The schema-1 verdict (docs/evidence.md, "Result and reason, schema 1"): a policy over the
 * evidence of a schema-1 plan (schema-1.ts). Rules 1–6 are the run rules of verdict.ts.
 */
import { DIAGNOSTICS, recoveryNotObserved } from "./diagnostics.js";
import type { RunEvidence } from "./evidence.js";
import { triggerRules } from "./trigger-rules.js";
import type { RecoveryEvidence } from "./types.js";
import { failed, firstVerdict, passed, RUN_RULES, type Rule, type Verdict } from "./verdict.js";

/** Everything the schema-1 table looks at: the evidence (at most one fault) and its recovery rows. */
export interface Schema1Facts extends RunEvidence {
  readonly recovery: RecoveryEvidence;
}

/** Schema 1 has one fault: its sentences do not name it. */
const TRIGGER_RULES = triggerRules((_faultId, sentence) => sentence);

const hasRepeats = (values: readonly string[]): boolean => new Set(values).size !== values.length;
/** The FAULT_INJECTED operation ids of the fault, in sequence order. */
const injected = ({ faults }: Schema1Facts) => faults[0]?.evidence.selections ?? [];

/** The first rule that applies wins. */
const RULES: readonly Rule<Schema1Facts>[] = [
  RUN_RULES.runError,
  RUN_RULES.notCompleted,
  RUN_RULES.interrupted,
  RUN_RULES.timedOut,
  RUN_RULES.exitCodeNotRecorded,
  RUN_RULES.exitCodeMismatch,
  RUN_RULES.duplicateSequences,
  /* 7 */ (f) => (f.faults.length === 0 ? passed("BASELINE_SUCCEEDED") : undefined),
  TRIGGER_RULES.contradicted,
  /* 9 */ (f) =>
    injected(f).length === 0 ? failed("FAULT_NOT_TRIGGERED", DIAGNOSTICS.faultNotTriggered) : undefined,
  /* 10 */ (f) =>
    hasRepeats(injected(f)) ? failed("INTERNAL_ERROR", DIAGNOSTICS.duplicateInjection) : undefined,
  TRIGGER_RULES.tooManyInjections,
  TRIGGER_RULES.scheduleIncomplete,
  TRIGGER_RULES.windowIncomplete,
  /* 14 */ ({ recovery: r }) => (r.required === 0 ? passed("FAULT_TOLERATED") : undefined),
  /* 15 */ ({ recovery: r }) =>
    r.successful < r.required
      ? failed("RECOVERY_NOT_OBSERVED", recoveryNotObserved(r.required, r.successful))
      : undefined,
];

const RECOVERED: Verdict = { result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] };

/** The result, reason code and diagnostics: rules 1–15 in order, else rule 16. */
export function decideSchema1Verdict(facts: Schema1Facts): Verdict {
  return firstVerdict(RULES, facts, RECOVERED);
}
