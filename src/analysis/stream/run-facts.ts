/**
 * What both analyzers read from every event, kept while reading in file order: the position in
 * sequence order, duplicate sequence numbers, the metrics counts, the last RUN_ERROR and
 * WORKLOAD_COMPLETED, the first and last timestamps. A sequence number lower than the one before
 * means the file is not in sequence order: only the batch analyzer (which sorts) can judge it.
 */
import type { AnyEvent } from "../events-of-type.js";
import type { Metrics } from "../types.js";

type PayloadOf<K extends string> = Extract<AnyEvent["payload"], { kind: K }>;

export class RunFacts {
  /** Position of the next event in sequence order (0-based). */
  index = 0;
  duplicateSequences = false;
  runError: PayloadOf<"RUN_ERROR"> | null = null;
  completion: PayloadOf<"WORKLOAD_COMPLETED"> | null = null;
  /** Whether a WORKLOAD_STARTED was recorded (the workload ran). */
  workloadStarted = false;
  /** The operation id of the latest OPERATION_OBSERVED. */
  lastObservedId: string | null = null;
  #previousSequence = 0;
  #first: string | null = null;
  #last: string | null = null;
  #lastElapsedMs = 0;
  #faultsInjected = 0;
  #observed = 0;
  #succeeded = 0;
  #failed = 0;
  #retries = 0;

  /** Takes one event; false when it comes before the previous one in sequence order. */
  push(event: AnyEvent): boolean {
    if (this.index > 0) {
      if (event.sequence < this.#previousSequence) return false;
      if (event.sequence === this.#previousSequence) this.duplicateSequences = true;
    }
    this.#previousSequence = event.sequence;
    this.index += 1;
    this.#first ??= event.timestamp;
    this.#last = event.timestamp;
    this.#lastElapsedMs = event.elapsed_ms;
    const { payload } = event;
    switch (payload.kind) {
      case "FAULT_INJECTED":
        this.#faultsInjected += 1;
        break;
      case "OPERATION_OBSERVED":
        this.#observed += 1;
        this.lastObservedId = payload.operation_id;
        break;
      case "OPERATION_SUCCEEDED":
        this.#succeeded += 1;
        break;
      case "OPERATION_FAILED":
        this.#failed += 1;
        break;
      case "RETRY_OBSERVED":
        this.#retries += 1;
        break;
      case "RUN_ERROR":
        this.runError = payload;
        break;
      case "WORKLOAD_COMPLETED":
        this.completion = payload;
        break;
      case "WORKLOAD_STARTED":
        this.workloadStarted = true;
        break;
      default:
        break;
    }
    return true;
  }

  /** analysis.md "Metrics" of the events so far. */
  metrics(): Metrics {
    const completion = this.completion;
    return {
      faultsInjected: this.#faultsInjected,
      operationsObserved: this.#observed,
      successfulOperations: this.#succeeded,
      failedOperations: this.#failed,
      retriesObserved: this.#retries,
      durationMs: this.index === 0 ? 0 : this.#lastElapsedMs,
      workloadExitCode: completion?.exit_code ?? null,
      workloadTimedOut: completion?.timed_out ?? false,
      workloadInterrupted: completion?.interrupted ?? false,
    };
  }

  /** Timestamps of the first and last event (null without events). */
  timing(): { startedAt: string; completedAt: string } | null {
    return this.#first === null || this.#last === null
      ? null
      : { startedAt: this.#first, completedAt: this.#last };
  }
}
