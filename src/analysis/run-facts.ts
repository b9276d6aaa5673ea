/**
 * What the analysis reads from every event, kept while reading in file order: the position in
 * sequence order, duplicate sequence numbers, the metrics counts, the last RUN_ERROR and
 * WORKLOAD_COMPLETED, the first and last timestamps. A sequence number lower than the one before
 * means the file is not in sequence order: only the whole log, sorted, can be judged.
 */
import type { AgentChaosEvent, RunErrorPayload, WorkloadCompletedPayload } from "../events/types.js";
import type { EventTiming, Metrics } from "./types.js";

/** The metric each counted event kind adds one to, in the metrics' order. */
const COUNTED = {
  FAULT_INJECTED: "faultsInjected",
  OPERATION_OBSERVED: "operationsObserved",
  OPERATION_SUCCEEDED: "successfulOperations",
  OPERATION_FAILED: "failedOperations",
  RETRY_OBSERVED: "retriesObserved",
} as const;

type Count = (typeof COUNTED)[keyof typeof COUNTED];

export class RunFacts {
  /** Position of the next event in sequence order (0-based). */
  index = 0;
  duplicateSequences = false;
  runError: RunErrorPayload | null = null;
  completion: WorkloadCompletedPayload | null = null;
  /** Whether a WORKLOAD_STARTED was recorded (the workload ran). */
  workloadStarted = false;
  #previousSequence = 0;
  #first: string | null = null;
  #last: string | null = null;
  #lastElapsedMs = 0;
  readonly #counts = Object.fromEntries(Object.values(COUNTED).map((count) => [count, 0])) as Record<
    Count,
    number
  >;

  /** Takes one event; false when it comes before the previous one in sequence order. */
  push(event: AgentChaosEvent): boolean {
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
    if (Object.hasOwn(COUNTED, payload.kind))
      this.#counts[COUNTED[payload.kind as keyof typeof COUNTED]] += 1;
    switch (payload.kind) {
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

  /** The metrics of the events so far (docs/evidence.md, "Metrics"). */
  metrics(): Metrics {
    const completion = this.completion;
    return {
      ...this.#counts,
      durationMs: this.index === 0 ? 0 : this.#lastElapsedMs,
      workloadExitCode: completion?.exit_code ?? null,
      workloadTimedOut: completion?.timed_out ?? false,
      workloadInterrupted: completion?.interrupted ?? false,
    };
  }

  /** Timestamps of the first and last event (null without events). */
  timing(): EventTiming {
    return this.#first === null || this.#last === null
      ? null
      : { startedAt: this.#first, completedAt: this.#last };
  }
}
