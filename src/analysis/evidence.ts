/**
 * The evidence of a run (docs/evidence.md), drawn from an analysis stream at any point without
 * changing it: metrics, dependencies, each fault's selections and trigger evidence, every
 * fault-related failure as a recovery row (attributed to a fault and resolved by the plan's
 * recovery mode), the checks. The verdict is a policy over it: verdict.ts for the internal
 * model, schema-1-verdict.ts for schema 1.
 */
import { checkOutcome } from "../checks/evaluate.js";
import type { CheckOutcome } from "../checks/types.js";
import type { FaultNotAppliedPayload, RunErrorPayload, WorkloadCompletedPayload } from "../events/types.js";
import type { Expectation, RecoveryMode } from "../scenario/types.js";
import type { AnalysisStream, FailureRow } from "./analysis-stream.js";
import { CHAIN_GROUP, findChecks } from "./check-findings.js";
import type { CorruptedRetry } from "./corrupted-retries.js";
import { describeObserved } from "./fault-diagnostics.js";
import { lifecycleFindings } from "./lifecycle-facts.js";
import { faultOf, type Operation } from "./operations.js";
import type { PlannedFault } from "./plan.js";
import { outageEvidence, probabilityEvidence, quotaEvidence, scheduleEvidence } from "./trigger-evidence.js";
import type { TruthEvidence } from "./truth.js";
import type {
  DependencyEvidence,
  EventTiming,
  FaultEvidence,
  Metrics,
  RecoveryRow,
  TriggerEvidence,
} from "./types.js";

/**
 * One fault-related OPERATION_FAILED: a recovery row whose fault (and its expectation) is null
 * when no configured fault explains it. Its retry is resolved by the plan's recovery mode.
 */
export type FailureEvidence = Omit<RecoveryRow, "faultId" | "expect"> & {
  readonly faultId: string | null;
  readonly expect: Expectation | null;
};

export interface ConfiguredFault {
  readonly fault: PlannedFault;
  readonly evidence: FaultEvidence;
  /** What was observed on its dependency, for FAULT_NOT_TRIGGERED (only without selections). */
  readonly observed: string | null;
}

export interface RunEvidence {
  readonly expectedExitCode: number;
  /** The last RUN_ERROR and WORKLOAD_COMPLETED, if any. */
  readonly runError: RunErrorPayload | null;
  readonly completion: WorkloadCompletedPayload | null;
  readonly duplicateSequences: boolean;
  readonly recoveryMode: RecoveryMode;
  readonly metrics: Metrics;
  readonly timing: EventTiming;
  /** In plan order. */
  readonly dependencies: readonly DependencyEvidence[];
  /** In plan order. */
  readonly faults: readonly ConfiguredFault[];
  /** Every fault-related failure, in sequence order. */
  readonly failures: readonly FailureEvidence[];
  readonly notApplied: readonly FaultNotAppliedPayload[];
  /** Operations injected more than once, or selected twice by one fault. */
  readonly duplicateInjections: readonly string[];
  /** FAULT_INJECTED or FAULT_NOT_APPLIED naming a fault the plan does not have. */
  readonly unknownFaultEvidence: boolean;
  /** The checks that are not `off`, in registry order. */
  readonly checks: readonly CheckOutcome[];
  /** How diagnostics name an operation: its label, else its id. */
  readonly label: (operationId: string) => string;
  /** The verify outcome and the canaries seen (truth.ts). */
  readonly truth: TruthEvidence;
  /** Calls a `give_up` corruption fault corrupted that the workload repeated (corrupted-retries.ts). */
  readonly corruptedRetries: readonly CorruptedRetry[];
}

function failureEvidence(
  stream: AnalysisStream,
  row: FailureRow,
  fifo: ReturnType<NonNullable<AnalysisStream["fifo"]>["rows"]> | null,
): FailureEvidence {
  const chain = (row.op.chain as NonNullable<Operation["chain"]>).root();
  const faultId = faultOf(row.op, row.index);
  const fault = stream.plan.faults.find((planned) => planned.id === faultId);
  let resolution: { retryOperationId: string | null; recoveryLatencyMs: number | null };
  if (fifo !== null) {
    const decided = fifo[row.position];
    resolution = {
      retryOperationId: decided?.retry_operation_id ?? null,
      recoveryLatencyMs: decided?.recovery_latency_ms ?? null,
    };
  } else {
    const winner = chain.recoveredAfter(row.index);
    const success = winner?.success ?? null;
    resolution = {
      retryOperationId: winner?.id ?? null,
      recoveryLatencyMs: success === null ? null : Math.max(0, success.elapsedMs - row.elapsedMs),
    };
  }
  // The keys in the order of a recovery row (analysis/types.ts), which is one of these.
  return {
    faultId: fault === undefined ? null : fault.id,
    failedOperationId: row.op.id,
    ...resolution,
    failureKind: row.failureKind,
    expect: fault?.expect ?? null,
    retriedBy: chain.retriedAfter(row.index)?.id ?? null,
  };
}

function triggerEvidence(
  stream: AnalysisStream,
  fault: PlannedFault,
  selections: readonly string[],
): TriggerEvidence {
  if (fault.trigger.kind === "occurrence_schedule") return scheduleEvidence(fault.trigger, selections.length);
  const { window } = stream.windows.find(
    (entry) => entry.fault === fault,
  ) as AnalysisStream["windows"][number];
  if (fault.trigger.kind === "outage") return outageEvidence(fault.trigger, window.ids, selections);
  if (fault.trigger.kind === "quota")
    return quotaEvidence(fault.trigger, window.total, selections, stream.countedTokens.get(fault.id) ?? 0);
  return probabilityEvidence(fault.trigger, window.total, window.ids, selections);
}

function duplicateInjections(stream: AnalysisStream, faults: readonly FaultEvidence[]): string[] {
  const duplicates = new Set(
    [...stream.injectedTwice]
      .sort((a, b) => (a.injected?.index ?? 0) - (b.injected?.index ?? 0))
      .map((op) => op.id),
  );
  for (const fault of faults) {
    const seen = new Set<string>();
    for (const id of fault.selections) {
      if (seen.has(id)) duplicates.add(id);
      seen.add(id);
    }
  }
  return [...duplicates];
}

function checkOutcomes(stream: AnalysisStream): CheckOutcome[] {
  if (stream.checks.length === 0) return [];
  const placed = [...stream.forgotten];
  for (const op of stream.operations.values()) if (stream.whole || !op.closed) findChecks(op, placed, stream);
  for (const chain of stream.chains) {
    if (!chain.isRoot || chain.size < 2) continue;
    for (const { name, definition } of stream.checks) {
      const config = stream.plan.checks[name];
      const finding = definition.chain?.(
        {
          firstOperationId: chain.first.id,
          dependency: chain.first.observed?.payload.dependency ?? null,
          operations: chain.size,
        },
        config,
      );
      if (finding != null)
        placed.push({ check: name, group: CHAIN_GROUP, a: chain.first.order, b: 0, finding });
    }
  }
  lifecycleFindings(stream, placed);
  placed.sort((x, y) => x.group - y.group || x.a - y.a || x.b - y.b);
  return stream.checks.flatMap(({ name }) => {
    const findings = placed.flatMap((entry) => (entry.check === name ? [entry.finding] : []));
    const { label } = stream.labels;
    return checkOutcome(name, stream.plan.checks, findings, label, stream.facts.workloadStarted) ?? [];
  });
}

/** The evidence of the events pushed so far; the stream must be usable. */
export function evidenceOf(stream: AnalysisStream): RunEvidence {
  if (!stream.usable) throw new Error("this log needs the whole-log analysis");
  const { plan, facts } = stream;

  const fifo = stream.fifo === null ? null : stream.fifo.rows();
  const failures = stream.failures.map((row) => failureEvidence(stream, row, fifo));
  const faults = plan.faults.map((fault): ConfiguredFault => {
    const own = stream.selections.get(fault.id);
    const selections = [...(own?.selections ?? [])];
    const rows = failures.filter((row) => row.faultId === fault.id && row.expect === "recover");
    const keys = stream.observedKeys.get(fault.dependency);
    return {
      fault,
      evidence: {
        id: fault.id,
        selections,
        injected: own?.injected ?? 0,
        notApplied: own?.notApplied ?? 0,
        trigger: triggerEvidence(stream, fault, selections),
        recovery: {
          required: rows.length,
          successful: rows.filter((row) => row.retryOperationId !== null).length,
        },
      },
      observed:
        selections.length > 0 || keys === undefined
          ? null
          : describeObserved(
              fault.dependency,
              new Map(
                [...keys].sort((a, b) => a[1].order - b[1].order).map(([key, { count }]) => [key, count]),
              ),
            ),
    };
  });
  const known = new Set(plan.faults.map((fault) => fault.id));
  return {
    expectedExitCode: plan.success.exitCode,
    runError: facts.runError as RunErrorPayload | null,
    completion: facts.completion as WorkloadCompletedPayload | null,
    duplicateSequences: facts.duplicateSequences,
    recoveryMode: plan.recovery,
    metrics: facts.metrics(),
    timing: facts.timing(),
    dependencies: plan.dependencies.map((dependency) => ({
      name: dependency.name,
      operationsObserved: stream.dependencies.get(dependency.name)?.observed ?? 0,
      failedOperations: stream.dependencies.get(dependency.name)?.failed ?? 0,
      baseUrl: stream.baseUrls.get(dependency.name) ?? null,
    })),
    faults,
    failures,
    notApplied: [...stream.notApplied],
    duplicateInjections: duplicateInjections(
      stream,
      faults.map(({ evidence }) => evidence),
    ),
    unknownFaultEvidence: [...stream.selections.keys()].some((id) => !known.has(id)),
    checks: checkOutcomes(stream),
    label: stream.labels.label,
    truth: stream.truth.evidence(),
    corruptedRetries: stream.corruptedRetries.found(),
  };
}
