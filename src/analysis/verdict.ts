/**
 * The verdict of a run in the internal model: the precedence table of docs/evidence.md ("Result
 * and reason, schema 2") over the evidence. Rules 1–6 are shared with schema 1
 * (schema-1-verdict.ts).
 */
import { checkReason } from "../checks/evaluate.js";
import type { RunResult } from "../events/types.js";
import { DIAGNOSTICS, exitCodeMismatch, recoveryNotObserved } from "./diagnostics.js";
import type { RunEvidence } from "./evidence.js";
import {
  aboutFault,
  corruptedCallRetried,
  duplicateInjection,
  enforcedCheckHint,
  faultNotApplied,
  faultNotTriggered,
  partialResponseAccepted,
  UNKNOWN_FAULT_EVIDENCE,
  unattributedFailure,
  unexpectedRetry,
} from "./fault-diagnostics.js";
import { triggerRules } from "./trigger-rules.js";
import { claimedSuccess, corruptionPropagated } from "./truth.js";
import type { RecoveryRow } from "./types.js";

/** What rules 1–6 look at: the run and the workload, not the fault. */
export type RunFacts = Pick<
  RunEvidence,
  "expectedExitCode" | "runError" | "completion" | "duplicateSequences"
>;

export interface Verdict {
  readonly result: RunResult;
  readonly reasonCode: string;
  readonly diagnostics: readonly string[];
}

/** A rule of a precedence table: its verdict, or undefined when it does not apply. */
export type Rule<F> = (facts: F) => Verdict | undefined;

export const failed = (reasonCode: string, diagnostic: string): Verdict => ({
  result: "FAILED",
  reasonCode,
  diagnostics: [diagnostic],
});

/**
 * Rules 1–6, which both tables keep (the internal model's with rule 4a between `timedOut` and
 * the exit code rules). Between rules 4 and 5 a completion without an exit code
 * counts as not completed, the way the strict report reader re-derives the pair (docs/reports.md),
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
} as const satisfies Record<string, Rule<RunFacts>>;

/** Everything the table looks at: the evidence, the rows of configured faults, the other failures. */
interface VerdictFacts extends RunEvidence {
  readonly rows: readonly RecoveryRow[];
  /** Fault-related failures that belong to no configured fault. */
  readonly unattributed: readonly string[];
}

/** FAILED with one diagnostic per item (the item itself unless `describe` words it), when there is any. */
function failedFor<T>(reasonCode: string, items: readonly T[], describe: (item: T) => string = String) {
  return items.length === 0
    ? undefined
    : ({ result: "FAILED", reasonCode, diagnostics: items.map(describe) } satisfies Verdict);
}

export const passed = (reasonCode: string): Verdict => ({ result: "PASSED", reasonCode, diagnostics: [] });

const TRIGGER_RULES = triggerRules(aboutFault);

const unresolvedRecoverRows = (rows: readonly RecoveryRow[]) =>
  rows.filter((row) => row.expect === "recover" && row.retryOperationId === null);

/**
 * Rules 1–20 in order. A completion without an exit code counts as not
 * completed (as in schema 1) before rule 4a: a workload that never reported its exit did not
 * end well, whatever it retried.
 */
const RULES: readonly Rule<VerdictFacts>[] = [
  RUN_RULES.runError,
  RUN_RULES.notCompleted,
  RUN_RULES.interrupted,
  /* in place of 4 */ (f) => (f.completion?.timed_out ? agentHung(f.checks) : undefined),
  RUN_RULES.timedOut,
  RUN_RULES.exitCodeNotRecorded,
  /* 4a */ ({ rows, corruptedRetries, label }) =>
    failedFor("UNEXPECTED_RETRY", [
      ...rows
        .filter((row) => row.expect === "give_up" && row.retriedBy !== null)
        .map((row) => unexpectedRetry(row, label)),
      ...corruptedRetries.map((retry) => corruptedCallRetried(retry, label)),
    ]),
  RUN_RULES.exitCodeMismatch,
  /* after 5 */ ({ truth: { verify } }) =>
    verify !== null && !verify.passed ? failed("CLAIMED_SUCCESS", claimedSuccess(verify)) : undefined,
  /* right after it */ ({ truth: { canaries } }) =>
    failedFor("CORRUPTION_PROPAGATED", canaries, corruptionPropagated),
  RUN_RULES.duplicateSequences,
  /* 7 */ ({ faults }) => (faults.length === 0 ? passed("BASELINE_SUCCEEDED") : undefined),
  TRIGGER_RULES.contradicted,
  /* 9 */ ({ faults }) =>
    failedFor(
      "FAULT_NOT_TRIGGERED",
      faults.filter(({ evidence }) => evidence.selections.length === 0),
      ({ fault, observed }) => faultNotTriggered(fault.id, observed ?? ""),
    ),
  /* 10 */ (f) =>
    failedFor("INTERNAL_ERROR", [
      ...f.duplicateInjections.map((id) => duplicateInjection(f.label(id))),
      ...(f.unknownFaultEvidence ? [UNKNOWN_FAULT_EVIDENCE] : []),
      ...f.unattributed.map((id) => unattributedFailure(f.label(id))),
    ]),
  TRIGGER_RULES.tooManyInjections,
  TRIGGER_RULES.scheduleIncomplete,
  TRIGGER_RULES.windowIncomplete,
  /* 14 */ ({ notApplied, label }) =>
    failedFor("FAULT_NOT_APPLIED", notApplied, (event) =>
      faultNotApplied(event.fault_id, label(event.operation_id), event.reason),
    ),
  /* 15 */ ({ rows }) => (rows.length === 0 ? passed("FAULT_TOLERATED") : undefined),
  /* 16 */ ({ rows, label }) =>
    failedFor(
      "PARTIAL_RESPONSE_ACCEPTED",
      unresolvedRecoverRows(rows).filter((row) => row.failureKind === "injected_stream_truncated"),
      (row) => partialResponseAccepted(row, label),
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
    const enforced = checks.find((check) => check.mode === "enforce" && check.passed === false);
    return enforced === undefined ? undefined : enforcedFailure(enforced);
  },
  /* 19 */ ({ rows }) =>
    rows.some((row) => row.retryOperationId !== null)
      ? { result: "RECOVERED", reasonCode: "RECOVERY_OBSERVED", diagnostics: [] }
      : undefined,
];

/** An enforced check's findings as FAILED, with the hint on how to keep them without failing. */
function enforcedFailure(check: RunEvidence["checks"][number]): Verdict | undefined {
  return failedFor(checkReason(check.name), [...check.diagnostics, enforcedCheckHint(check.name)]);
}

/** A timed-out run with an enforced `fail_fast` finding: AGENT_HUNG in place of rule 4. */
function agentHung(checks: RunEvidence["checks"]): Verdict | undefined {
  const hung = checks.find((check) => check.name === "fail_fast" && check.mode === "enforce");
  return hung === undefined || hung.passed !== false ? undefined : enforcedFailure(hung);
}

/** The verdict of the first rule that applies, else `last`. */
export function firstVerdict<F>(rules: readonly Rule<F>[], facts: F, last: Verdict): Verdict {
  for (const rule of rules) {
    const verdict = rule(facts);
    if (verdict !== undefined) return verdict;
  }
  return last;
}

/** The result, reason code and diagnostics: rules 1–19 in order, else rule 20. */
export function decideVerdict(evidence: RunEvidence, rows: readonly RecoveryRow[]): Verdict {
  const facts: VerdictFacts = {
    ...evidence,
    rows,
    unattributed: evidence.failures.flatMap((row) => (row.faultId === null ? [row.failedOperationId] : [])),
  };
  return firstVerdict(RULES, facts, passed("FAILURE_HANDLED"));
}
