/** The result and reason of a schema-2 run: the precedence table of v2/evidence.md. */

import { checkReason } from "../../checks/evaluate.js";
import type { CheckOutcome } from "../../checks/types.js";
import type { FaultNotAppliedPayload } from "../../events/types-v2.js";
import {
  DIAGNOSTICS,
  recoveryNotObserved,
  scheduleIncomplete,
  tooManyInjections,
  windowIncomplete,
} from "../diagnostics.js";
import type { PlannedFault } from "../plan.js";
import { RUN_RULES, type RunFacts, type Verdict } from "../verdict.js";
import {
  aboutFault,
  duplicateInjection,
  faultNotApplied,
  faultNotTriggered,
  partialResponseAccepted,
  UNKNOWN_FAULT_EVIDENCE,
  unattributedFailure,
  unexpectedRetry,
} from "./diagnostics.js";
import type { FaultEvidence, RecoveryRowV2 } from "./types.js";

export interface ConfiguredFault {
  readonly fault: PlannedFault;
  readonly evidence: FaultEvidence;
  /** What was observed on its dependency, for FAULT_NOT_TRIGGERED (computed only when needed). */
  readonly observed: () => string;
}

/** Everything the table looks at, already extracted from the events. */
export interface VerdictFactsV2 extends RunFacts {
  /** In scenario order. */
  readonly faults: readonly ConfiguredFault[];
  readonly rows: readonly RecoveryRowV2[];
  readonly notApplied: readonly FaultNotAppliedPayload[];
  /** Operations with more than one injection or selected twice by one fault. */
  readonly duplicateInjections: readonly string[];
  /** Fault-related failures that belong to no configured fault. */
  readonly unattributed: readonly string[];
  /** FAULT_INJECTED or FAULT_NOT_APPLIED naming a fault the scenario does not have. */
  readonly unknownFaultEvidence: boolean;
  readonly checks: readonly CheckOutcome[];
}

type Rule = (facts: VerdictFactsV2) => Verdict | undefined;

/** FAILED with one diagnostic per item, when there is any item. */
function failedFor<T>(reasonCode: string, items: readonly T[], describe: (item: T) => string) {
  return items.length === 0
    ? undefined
    : ({ result: "FAILED", reasonCode, diagnostics: items.map(describe) } satisfies Verdict);
}

const passed = (reasonCode: string): Verdict => ({ result: "PASSED", reasonCode, diagnostics: [] });

const unresolvedRecoverRows = (rows: readonly RecoveryRowV2[]) =>
  rows.filter((row) => row.expect === "recover" && row.retryOperationId === null);

/**
 * Rules 1–20 in order (v2/evidence.md). A completion without an exit code counts as not
 * completed (as in schema 1) before rule 4a: a workload that never reported its exit did not
 * end well, whatever it retried.
 */
const RULES: readonly Rule[] = [
  RUN_RULES.runError,
  RUN_RULES.notCompleted,
  RUN_RULES.interrupted,
  RUN_RULES.timedOut,
  RUN_RULES.exitCodeNotRecorded,
  /* 4a */ ({ rows }) =>
    failedFor(
      "UNEXPECTED_RETRY",
      rows.filter((row) => row.expect === "give_up" && row.retriedBy !== null),
      unexpectedRetry,
    ),
  RUN_RULES.exitCodeMismatch,
  RUN_RULES.duplicateSequences,
  /* 7 */ ({ faults }) => (faults.length === 0 ? passed("BASELINE_SUCCEEDED") : undefined),
  /* 8 */ ({ faults }) =>
    failedFor(
      "INTERNAL_ERROR",
      faults.filter(({ evidence: { trigger: t } }) => t.kind === "seeded_probability" && !t.consistent),
      ({ fault }) => aboutFault(fault.id, DIAGNOSTICS.probabilityContradicted),
    ),
  /* 9 */ ({ faults }) =>
    failedFor(
      "FAULT_NOT_TRIGGERED",
      faults.filter(({ evidence }) => evidence.selections.length === 0),
      ({ fault, observed }) => faultNotTriggered(fault.id, observed()),
    ),
  /* 10 */ (f) =>
    failedFor(
      "INTERNAL_ERROR",
      [
        ...f.duplicateInjections.map(duplicateInjection),
        ...(f.unknownFaultEvidence ? [UNKNOWN_FAULT_EVIDENCE] : []),
        ...f.unattributed.map(unattributedFailure),
      ],
      (sentence) => sentence,
    ),
  /* 11 */ ({ faults }) =>
    failedFor(
      "INTERNAL_ERROR",
      faults.filter(
        ({ evidence: { trigger: t, selections } }) =>
          t.kind === "occurrence_schedule" && selections.length > t.scheduledOccurrences.length,
      ),
      ({ fault, evidence }) =>
        aboutFault(
          fault.id,
          tooManyInjections(
            evidence.trigger.kind === "occurrence_schedule"
              ? evidence.trigger.scheduledOccurrences.length
              : 0,
            evidence.selections.length,
          ),
        ),
    ),
  /* 12 */ ({ faults }) =>
    failedFor(
      "FAULT_SCHEDULE_INCOMPLETE",
      faults.flatMap(({ fault, evidence: { trigger: t } }) =>
        t.kind === "occurrence_schedule" && !t.completed ? [{ id: fault.id, t }] : [],
      ),
      ({ id, t }) =>
        aboutFault(id, scheduleIncomplete(t.scheduledOccurrences.length, t.completedOccurrences.length)),
    ),
  /* 13 */ ({ faults }) =>
    failedFor(
      "TRIGGER_WINDOW_INCOMPLETE",
      faults.flatMap(({ fault, evidence: { trigger: t } }) =>
        t.kind === "seeded_probability" && !t.completed ? [{ id: fault.id, t }] : [],
      ),
      ({ id, t }) =>
        aboutFault(
          id,
          windowIncomplete(t.window.endOccurrence - t.window.startOccurrence + 1, t.evaluatedOccurrences),
        ),
    ),
  /* 14 */ ({ notApplied }) =>
    failedFor("FAULT_NOT_APPLIED", notApplied, (event) =>
      faultNotApplied(event.fault_id, event.operation_id, event.reason),
    ),
  /* 15 */ ({ rows }) => (rows.length === 0 ? passed("FAULT_TOLERATED") : undefined),
  /* 16 */ ({ rows }) =>
    failedFor(
      "PARTIAL_RESPONSE_ACCEPTED",
      unresolvedRecoverRows(rows).filter((row) => row.failureKind === "injected_stream_truncated"),
      partialResponseAccepted,
    ),
  /* 17 */ ({ faults, rows }) => {
    const unresolved = new Set(unresolvedRecoverRows(rows).map((row) => row.faultId));
    return failedFor(
      "RECOVERY_NOT_OBSERVED",
      faults.filter(({ fault }) => unresolved.has(fault.id)),
      ({ fault, evidence: { recovery } }) =>
        aboutFault(fault.id, recoveryNotObserved(recovery.required, recovery.successful)),
    );
  },
  /* 18 */ ({ checks }) => {
    const enforced = checks.find((check) => check.mode === "enforce" && !check.passed);
    return enforced === undefined
      ? undefined
      : failedFor(checkReason(enforced.name), enforced.diagnostics, (sentence) => sentence);
  },
  /* 19 */ ({ rows }) =>
    rows.some((row) => row.retryOperationId !== null)
      ? { result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] }
      : undefined,
];

/** The result, reason code and diagnostics: rules 1–19 in order, else rule 20. */
export function decideVerdictV2(facts: VerdictFactsV2): Verdict {
  for (const rule of RULES) {
    const verdict = rule(facts);
    if (verdict !== undefined) return verdict;
  }
  return passed("FAILURE_HANDLED");
}
