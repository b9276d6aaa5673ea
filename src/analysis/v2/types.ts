/** The analysed result of one schema-2 run: what report 4 and the summary are built from. */

import type { CheckOutcome } from "../../checks/types.js";
import type { RunResult } from "../../events/types.js";
import type { FailureKindV2 } from "../../events/types-v2.js";
import type { Expectation, RecoveryMode } from "../../scenario/types-v2.js";
import type { Metrics, TriggerEvidence } from "../types.js";

export type { CheckOutcome } from "../../checks/types.js";

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
export interface RecoveryRowV2 {
  readonly faultId: string;
  readonly failedOperationId: string;
  readonly retryOperationId: string | null;
  readonly recoveryLatencyMs: number | null;
  readonly failureKind: FailureKindV2;
  readonly expect: Expectation;
  /** The first operation that retried this row's chain after the failure, if any. */
  readonly retriedBy: string | null;
}

export interface RecoveryV2 {
  readonly mode: RecoveryMode;
  /** Rows of `recover` faults. */
  readonly required: number;
  /** Resolved rows of `recover` faults. */
  readonly successful: number;
  readonly rows: readonly RecoveryRowV2[];
}

export interface AnalysisV2 {
  readonly result: RunResult;
  readonly reasonCode: string;
  readonly metrics: Metrics;
  /** In scenario order. */
  readonly dependencies: readonly DependencyEvidence[];
  /** In scenario order. */
  readonly faults: readonly FaultEvidence[];
  readonly recovery: RecoveryV2;
  /** The checks that are not `off`, in the order retry_after, retry_storm, duplicate_writes. */
  readonly checks: readonly CheckOutcome[];
  readonly diagnostics: readonly string[];
  /** Timestamps of the first and last event (null without events). */
  readonly timing: { readonly startedAt: string; readonly completedAt: string } | null;
}
