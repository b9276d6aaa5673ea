import { type AnyEvent, lastPayload } from "./events-of-type.js";
import type { Metrics } from "./types.js";

/** The counts and workload outcome of analysis.md "Metrics", from events in sequence order. */
export function computeMetrics(events: readonly AnyEvent[]): Metrics {
  const counts = {
    FAULT_INJECTED: 0,
    OPERATION_OBSERVED: 0,
    OPERATION_SUCCEEDED: 0,
    OPERATION_FAILED: 0,
    RETRY_OBSERVED: 0,
  };
  for (const event of events) {
    if (Object.hasOwn(counts, event.type)) counts[event.type as keyof typeof counts]++;
  }
  const completion = lastPayload(events, "WORKLOAD_COMPLETED");
  return {
    faultsInjected: counts.FAULT_INJECTED,
    operationsObserved: counts.OPERATION_OBSERVED,
    successfulOperations: counts.OPERATION_SUCCEEDED,
    failedOperations: counts.OPERATION_FAILED,
    retriesObserved: counts.RETRY_OBSERVED,
    durationMs: events.at(-1)?.elapsed_ms ?? 0,
    workloadExitCode: completion?.exit_code ?? null,
    workloadTimedOut: completion?.timed_out ?? false,
    workloadInterrupted: completion?.interrupted ?? false,
  };
}
