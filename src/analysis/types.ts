/** The analysed result of one run: what every reporter (report.json, summary, ...) is built from. */
import type { RunResult } from "../events/types.js";

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

/** One row per fault-related OPERATION_FAILED (analysis.md). Field names as in the report. */
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

export type TriggerEvidence = ScheduleEvidence | ProbabilityEvidence;

export interface Analysis {
  readonly result: RunResult;
  readonly reasonCode: string;
  readonly metrics: Metrics;
  readonly recovery: RecoveryEvidence;
  /** null for a baseline (no fault configured). */
  readonly trigger: TriggerEvidence | null;
  readonly diagnostics: readonly string[];
  /** Timestamps of the first and last event (null without events). */
  readonly timing: { readonly startedAt: string; readonly completedAt: string } | null;
}
