/**
 * The counting state of one fault's trigger. It is created per fault object (never shared,
 * never global) so that several faults can each keep their own counter.
 */
export interface TriggerState {
  /**
   * Counts one more matching occurrence (the first call is occurrence 1) and says whether
   * that occurrence is selected for injection. Called exactly once per counted occurrence.
   */
  decide(): boolean;
  /**
   * A token quota only (else null): counts the tokens of the answer to a request this trigger let
   * through, when its `usage` arrives.
   */
  readonly countTokens: ((tokens: number) => void) | null;
  /**
   * A quota only (else null): whole seconds, rounded up, from the last decision until the
   * window falls below its limit (`retry_after_seconds: auto`).
   */
  readonly secondsUntilRoom: (() => number) | null;
}

/**
 * The run's clock as the events record it (docs/triggers.md, "Outages and quotas"): whole
 * milliseconds on the `elapsed_ms` clock, and the `elapsed_ms` of `WORKLOAD_STARTED`.
 */
export interface TriggerClock {
  now(): number;
  /**
   * The time of the observation being decided: the `elapsed_ms` recorded on its
   * `OPERATION_OBSERVED`, so that a decision and the log agree to the millisecond.
   */
  observedAt(): number;
  /** null until the workload started. */
  workloadStartedAt(): number | null;
}
