/**
 * The checks of v2/evidence.md: pure functions from a run's timeline to findings, each finding an
 * object of ids and integers only. One file per check, one registry (registry.ts).
 */
import type { Timeline } from "../events/timeline.js";
import type {
  OperationFailedPayloadV2,
  OperationObservedPayloadV2,
  OperationSucceededPayloadV2,
} from "../events/types-v2.js";
import type { CheckMode, CheckName, ChecksConfig } from "../scenario/types-v2.js";

/** Where an event stands: its position in sequence order ("after" compares these) and its time. */
export interface Position {
  readonly index: number;
  readonly elapsedMs: number;
}

export type At<P> = Position & { readonly payload: P };

/** What the checks read of one operation: its first event of each kind. */
export interface OperationFacts {
  readonly id: string;
  /** The order in which operations were first named by an event. */
  readonly order: number;
  readonly observed: At<OperationObservedPayloadV2> | null;
  readonly failure: At<OperationFailedPayloadV2> | null;
  readonly success: At<OperationSucceededPayloadV2> | null;
}

/** A retry and its previous failure (docs/checks.md). */
export interface RetryGap {
  readonly retryId: string;
  readonly failedId: string;
  /** Retry observed `elapsed_ms` − previous failure `elapsed_ms`. */
  readonly gapMs: number;
  /** What the previous failure's response asked for, or null. */
  readonly retryAfterMs: number | null;
}

/** A retry chain of two or more operations. */
export interface RetryChain {
  readonly firstOperationId: string;
  readonly operations: number;
}

/** `retry_after`: a retry observed sooner than its previous failure asked (minus the tolerance). */
export interface RetryAfterFinding {
  /** The retry. */
  readonly operation_id: string;
  /** Its previous failure, whose response asked for the wait. */
  readonly failed_operation_id: string;
  readonly retry_after_ms: number;
  /** Retry observed `elapsed_ms` − previous failure `elapsed_ms`. */
  readonly gap_ms: number;
}

/** `retry_storm`: a retry chain with more than `max_attempts` operations. */
export interface RetryStormChainFinding {
  /** The chain's first operation. */
  readonly first_operation_id: string;
  /** How many operations the chain has. */
  readonly operations: number;
}

/** `retry_storm`: a retry sooner than `min_gap_ms` after a failure that asked for no delay. */
export interface RetryStormGapFinding {
  readonly operation_id: string;
  readonly failed_operation_id: string;
  readonly gap_ms: number;
}

export type RetryStormFinding = RetryStormChainFinding | RetryStormGapFinding;

/** `duplicate_writes`: a write whose response was lost, done again by a later operation. */
export interface DuplicateWriteFinding {
  /** The POST or PATCH whose response was lost after the upstream accepted it. */
  readonly operation_id: string;
  /** The later operation with the same fingerprint that succeeded. */
  readonly duplicate_operation_id: string;
}

export interface FindingOf {
  readonly retry_after: RetryAfterFinding;
  readonly retry_storm: RetryStormFinding;
  readonly duplicate_writes: DuplicateWriteFinding;
}

export type Finding = FindingOf[CheckName];

/** One check: how it finds, the reason code when enforced, and how a finding reads. */
export interface CheckDefinition<N extends CheckName> {
  readonly reason: string;
  readonly find: (timeline: Timeline, config: ChecksConfig[N]) => FindingOf[N][];
  /** One sentence naming the operations and the numbers. */
  readonly describe: (finding: FindingOf[N], config: ChecksConfig[N]) => string;
  /**
   * The incremental form the analysis folds, one hook per fact it derives; a check defines the
   * hooks it needs. Every retry, in sequence order, with the failure before it in its chain:
   */
  readonly retry?: (gap: RetryGap, config: ChecksConfig[N]) => FindingOf[N] | null;
  /** Every retry chain of two or more operations, in the order of their first operations. */
  readonly chain?: (chain: RetryChain, config: ChecksConfig[N]) => FindingOf[N] | null;
  /** Whether an operation's response was lost after the upstream accepted it (a write to watch). */
  readonly lostWrite?: (op: OperationFacts) => boolean;
  /**
   * An operation of the same dependency and fingerprint as a lost write, observed after the loss
   * (pairs in the order of the lost write, then of the later operation).
   */
  readonly repeat?: (lost: OperationFacts, later: OperationFacts) => FindingOf[N] | null;
}

/** A check that is not `off`, evaluated. */
export interface CheckOutcome {
  readonly name: CheckName;
  readonly mode: Exclude<CheckMode, "off">;
  /** No findings. */
  readonly passed: boolean;
  readonly findings: readonly Finding[];
  /** One sentence per finding (ids, counts and fixed words). */
  readonly diagnostics: readonly string[];
}
