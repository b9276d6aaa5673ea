/**
 * The checks (docs/checks.md): incremental folds the analysis calls with the facts it derives
 * while reading a run, each returning findings — objects of ids and integers only. One file per
 * check, one registry (registry.ts).
 */
import type {
  OperationFailedPayload,
  OperationObservedPayload,
  OperationSucceededPayload,
} from "../events/types.js";
import type { CheckMode, CheckName, ChecksConfig } from "../scenario/types.js";

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
  readonly observed: At<OperationObservedPayload> | null;
  readonly failure: At<OperationFailedPayload> | null;
  readonly success: At<OperationSucceededPayload> | null;
}

/**
 * A retry (an operation with a RETRY_OBSERVED) and its previous failure: the latest
 * OPERATION_FAILED of a member of its retry chain before the retry's OPERATION_OBSERVED
 * (docs/checks.md). A retry without an earlier failure in its chain has none.
 */
export interface RetryGap {
  readonly retryId: string;
  /** The retry's dependency (null when it was never observed). */
  readonly dependency: string | null;
  readonly failedId: string;
  /** Retry observed `elapsed_ms` − previous failure `elapsed_ms`. */
  readonly gapMs: number;
  /** What the previous failure's response asked for, or null. */
  readonly retryAfterMs: number | null;
}

/** A retry chain of two or more operations. */
export interface RetryChain {
  readonly firstOperationId: string;
  /** The dependency of its operations (retries never cross dependencies); null if none was observed. */
  readonly dependency: string | null;
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
export type RetryStormGapFinding = Omit<RetryAfterFinding, "retry_after_ms">;

export type RetryStormFinding = RetryStormChainFinding | RetryStormGapFinding;

/** `duplicate_writes`: a write whose response was lost, done again by a later operation. */
export interface DuplicateWriteFinding {
  /** The POST or PATCH whose response was lost after the upstream accepted it. */
  readonly operation_id: string;
  /** The later operation with the same fingerprint that succeeded. */
  readonly duplicate_operation_id: string;
}

/** `fail_fast`: a fault-related failure after which the workload stayed silent too long. */
export interface FailFastFinding {
  /** The failed operation. */
  readonly operation_id: string;
  /** From the failure (plus the wait its response asked for) to the workload's next act. */
  readonly waited_ms: number;
}

/** `cancellation`: an MCP request the agent abandoned without `notifications/cancelled`. */
export interface CancellationFinding {
  readonly operation_id: string;
}

/**
 * A fault-related failure and how long the workload waited after it before it acted (its next
 * OPERATION_OBSERVED or WORKLOAD_COMPLETED), counted from the failure plus `retry_after_ms`.
 */
export interface Silence {
  readonly operationId: string;
  readonly waitedMs: number;
  /** The wait ended with a WORKLOAD_COMPLETED that timed out: the workload never acted. */
  readonly endedByTimeout: boolean;
}

/** An MCP request the agent never got an answer to (see docs/checks.md, `cancellation`). */
export interface AbandonedRequest {
  readonly operationId: string;
  /** Whether an MCP_CANCELLED names it. */
  readonly cancelled: boolean;
}

export interface FindingOf {
  readonly retry_after: RetryAfterFinding;
  readonly retry_storm: RetryStormFinding;
  readonly duplicate_writes: DuplicateWriteFinding;
  readonly fail_fast: FailFastFinding;
  readonly cancellation: CancellationFinding;
}

export type Finding = FindingOf[CheckName];

/**
 * One check: the reason code when enforced, how a finding reads, and one hook per fact the
 * analysis derives, of which a check defines those it needs. A check's findings are those of
 * its `chain` hook, then of `retry`, then of `repeat`, then of `silence`, then of `abandoned`,
 * each in the order given below.
 */
export interface CheckDefinition<N extends CheckName> {
  readonly reason: string;
  /** One sentence naming the operations (by `label`, see docs/explore.md) and the numbers. */
  readonly describe: (
    finding: FindingOf[N],
    config: ChecksConfig[N],
    label: (operationId: string) => string,
  ) => string;
  /** Every retry, in sequence order, with the failure before it in its chain. */
  readonly retry?: (gap: RetryGap, config: ChecksConfig[N]) => FindingOf[N] | null;
  /** Every retry chain of two or more operations, in the order of their first operations. */
  readonly chain?: (chain: RetryChain, config: ChecksConfig[N]) => FindingOf[N] | null;
  /** Whether an operation's response was lost after the upstream accepted it (a write to watch). */
  readonly lostWrite?: (op: OperationFacts, config: ChecksConfig[N]) => boolean;
  /**
   * An operation of the same dependency and fingerprint as a lost write, observed after the loss
   * (pairs in the order of the lost write, then of the later operation).
   */
  readonly repeat?: (lost: OperationFacts, later: OperationFacts) => FindingOf[N] | null;
  /** Every fault-related failure the workload acted after (or ended after), in sequence order. */
  readonly silence?: (silence: Silence, config: ChecksConfig[N]) => FindingOf[N] | null;
  /** Every abandoned MCP request, in the order of its failure. */
  readonly abandoned?: (request: AbandonedRequest) => FindingOf[N] | null;
}

/** A check that is not `off`, with its definition. */
export interface ActiveCheck {
  readonly name: CheckName;
  readonly definition: CheckDefinition<CheckName>;
}

/** A check that is not `off`, evaluated. */
export interface CheckOutcome {
  readonly name: CheckName;
  readonly mode: Exclude<CheckMode, "off">;
  /** No findings; null when nothing was checked because the workload never ran. */
  readonly passed: boolean | null;
  readonly findings: readonly Finding[];
  /** One sentence per finding (operation labels, counts and fixed words). */
  readonly diagnostics: readonly string[];
}
