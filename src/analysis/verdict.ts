import type { RunErrorPayload, RunResult, WorkloadCompletedPayload } from "../events/types.js";
import {
  DIAGNOSTICS,
  exitCodeMismatch,
  recoveryNotObserved,
  scheduleIncomplete,
  tooManyInjections,
  windowIncomplete,
} from "./diagnostics.js";
import type { RecoveryEvidence, TriggerEvidence } from "./types.js";

/** What rules 1–6 look at: the run and the workload, not the fault. */
export interface RunFacts {
  readonly expectedExitCode: number;
  /** The last RUN_ERROR, if any. */
  readonly runError: RunErrorPayload | null;
  /** The last WORKLOAD_COMPLETED, if any. */
  readonly completion: WorkloadCompletedPayload | null;
  readonly duplicateSequences: boolean;
}

/** Everything the precedence table looks at, already extracted from the events. */
export interface VerdictFacts extends RunFacts {
  /** FAULT_INJECTED operation ids in sequence order. */
  readonly injectedOperationIds: readonly string[];
  readonly recovery: RecoveryEvidence;
  /** null exactly when no fault is configured. */
  readonly trigger: TriggerEvidence | null;
}

export interface Verdict {
  readonly result: RunResult;
  readonly reasonCode: string;
  readonly diagnostics: readonly string[];
}

type Rule = (facts: VerdictFacts) => Verdict | undefined;
type RunRule = (facts: RunFacts) => Verdict | undefined;

export const failed = (reasonCode: string, diagnostic: string): Verdict => ({
  result: "FAILED",
  reasonCode,
  diagnostics: [diagnostic],
});

const hasRepeats = (values: readonly string[]): boolean => new Set(values).size !== values.length;

/**
 * Rules 1–6 of analysis.md, which schema 2 keeps (v2/evidence.md, with rule 4a between
 * `timedOut` and the exit code rules). Between rules 4 and 5 a completion without an exit code
 * counts as not completed, the way the strict report reader re-derives the pair (reports.md),
 * so every report this produces passes that reader.
 */
export const RUN_RULES = {
  /* 1 */ runError: ({ runError: e }) => (e ? failed(e.reason_code, e.message) : undefined),
  /* 2 */ notCompleted: ({ completion: c }) =>
    c === null ? failed("WORKLOAD_NOT_COMPLETED", DIAGNOSTICS.workloadNotCompleted) : undefined,
  /* 3 */ interrupted: ({ completion: c }) =>
    c?.interrupted ? failed("INTERRUPTED", DIAGNOSTICS.interrupted) : undefined,
  /* 4 */ timedOut: ({ completion: c }) =>
    c?.timed_out ? failed("WORKLOAD_TIMED_OUT", c.error ?? DIAGNOSTICS.timedOut) : undefined,
  /* 5a */ exitCodeNotRecorded: ({ completion: c }) =>
    c?.exit_code === null ? failed("WORKLOAD_NOT_COMPLETED", DIAGNOSTICS.exitCodeNotRecorded) : undefined,
  /* 5 */ exitCodeMismatch: ({ completion: c, expectedExitCode }) =>
    c && c.exit_code !== null && c.exit_code !== expectedExitCode
      ? failed("WORKLOAD_EXIT_CODE_MISMATCH", exitCodeMismatch(expectedExitCode, c.exit_code))
      : undefined,
  /* 6 */ duplicateSequences: (f) =>
    f.duplicateSequences ? failed("INTERNAL_ERROR", DIAGNOSTICS.duplicateSequences) : undefined,
} as const satisfies Record<string, RunRule>;

/** analysis.md "Result and reason": the first rule that applies wins. */
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
export function decideVerdict(facts: VerdictFacts): Verdict {
  for (const rule of RULES) {
    const verdict = rule(facts);
    if (verdict !== undefined) return verdict;
  }
  return RECOVERED;
}
