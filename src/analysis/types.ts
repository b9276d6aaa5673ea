/**
 * The analysed result of a run: what the reports, the summary and the reporters are built from.
 * `RunAnalysis` is the internal model's (report schema 4); `Schema1Analysis` the schema-1 shape
 * report schemas 2 and 3 are built from (schema-1.ts). Both share the metrics and trigger evidence.
 */
import type { CheckOutcome } from "../checks/types.js";
import type { FailureKind, RunResult } from "../events/types.js";
import type { Expectation, RecoveryMode } from "../scenario/types.js";
import type { TruthEvidence } from "./truth.js";

export type { CheckOutcome } from "../checks/types.js";

export interface Metrics {
  readonly faultsInjected: number;
  readonly operationsObserved: number;
  readonly successfulOperations: number;
  readonly failedOperations: number;
  readonly retriesObserved: number;
  /** `elapsed_ms` of the last event (0 without events). */
  readonly durationMs: number;
  readonly workloadExitCode: number | null;
  readonly workloadTimedOut: boolean;
  readonly workloadInterrupted: boolean;
}

/** One row per fault-related OPERATION_FAILED (schema 1). Field names as in the report. */
export interface EvidenceRow {
  readonly failed_operation_id: string;
  readonly retry_operation_id: string | null;
  readonly recovery_latency_ms: number | null;
}

export interface RecoveryEvidence {
  readonly required: number;
  readonly successful: number;
  readonly evidence: readonly EvidenceRow[];
}

export interface ScheduleEvidence {
  readonly kind: "occurrence_schedule";
  readonly scheduledOccurrences: readonly number[];
  readonly completedOccurrences: readonly number[];
  readonly completed: boolean;
}

export interface ProbabilityEvidence {
  readonly kind: "seeded_probability";
  readonly probability: number;
  readonly seed: bigint;
  readonly window: { readonly startOccurrence: number; readonly endOccurrence: number };
  readonly evaluatedOccurrences: number;
  readonly selectedOccurrences: readonly number[];
  readonly completed: boolean;
  /** Injected operation ids equal the selector's expectation over the evaluated part. */
  readonly consistent: boolean;
}

/** An outage's evidence: its selections and the first and last selected ordinals among the operations it counted. */
export interface OutageEvidence {
  readonly kind: "outage";
  readonly startMs: number;
  readonly durationMs: number;
  readonly selected: number;
  readonly firstSelectedOrdinal: number | null;
  readonly lastSelectedOrdinal: number | null;
}

/** A quota's evidence: what it counted (requests let through, or tokens of their answers) and its selections. */
export interface QuotaEvidence {
  readonly kind: "quota";
  readonly unit: "requests" | "tokens";
  readonly limit: number;
  readonly perMs: number;
  readonly counted: number;
  readonly selected: number;
}

export type TriggerEvidence = ScheduleEvidence | ProbabilityEvidence | OutageEvidence | QuotaEvidence;

/** Timestamps of the first and last event (null without events). */
export type EventTiming = { readonly startedAt: string; readonly completedAt: string } | null;

/** What the analyses of both shapes say: the verdict, the metrics, the diagnostics and the timing. */
export interface AnalysisOutcome {
  readonly result: RunResult;
  readonly reasonCode: string;
  readonly metrics: Metrics;
  readonly diagnostics: readonly string[];
  readonly timing: EventTiming;
}

/** The schema-1 shape of an analysis. */
export interface Schema1Analysis extends AnalysisOutcome {
  readonly recovery: RecoveryEvidence;
  /** null for a baseline (no fault configured). */
  readonly trigger: TriggerEvidence | null;
}

export interface DependencyEvidence {
  readonly name: string;
  readonly operationsObserved: number;
  readonly failedOperations: number;
  /** The safe base URL the run recorded (`{port}` resolved), or null when none was recorded. */
  readonly baseUrl: string | null;
}

export interface FaultEvidence {
  readonly id: string;
  /** Operation ids of its selections (FAULT_INJECTED, and FAULT_NOT_APPLIED another_fault_acted), in sequence order. */
  readonly selections: readonly string[];
  /** Its FAULT_INJECTED events. */
  readonly injected: number;
  /** Its FAULT_NOT_APPLIED events (every reason). */
  readonly notApplied: number;
  /** Trigger evidence counted on its selections. */
  readonly trigger: TriggerEvidence;
  /** Its rows that need resolving (none unless `expect: recover`) and the resolved ones among them. */
  readonly recovery: { readonly required: number; readonly successful: number };
}

/** One row per fault-related OPERATION_FAILED that can be attributed to a fault. */
export interface RecoveryRow {
  readonly faultId: string;
  readonly failedOperationId: string;
  readonly retryOperationId: string | null;
  readonly recoveryLatencyMs: number | null;
  readonly failureKind: FailureKind;
  readonly expect: Expectation;
  /** The first operation that retried this row's chain after the failure, if any. */
  readonly retriedBy: string | null;
}

export interface Recovery {
  readonly mode: RecoveryMode;
  /** Rows of `recover` faults. */
  readonly required: number;
  /** Resolved rows of `recover` faults. */
  readonly successful: number;
  readonly rows: readonly RecoveryRow[];
}

/** The analysis of a run in the internal model. */
export interface RunAnalysis extends AnalysisOutcome {
  /** The verify outcome and the canaries seen (analysis/truth.ts); absent on analyses built before them. */
  readonly truth?: TruthEvidence;
  /** In scenario order. */
  readonly dependencies: readonly DependencyEvidence[];
  /** In scenario order. */
  readonly faults: readonly FaultEvidence[];
  readonly recovery: Recovery;
  /** The checks that are not `off`, in the order retry_after, retry_storm, duplicate_writes. */
  readonly checks: readonly CheckOutcome[];
}
