import type { Recorder } from "../events/recorder.js";
import type { TriggerClock } from "../triggers/index.js";

/**
 * The clock outages and quotas read (docs/triggers.md): the recorder's `elapsed_ms`, and the
 * `elapsed_ms` of the run's `WORKLOAD_STARTED` once it is recorded. An outage's offsets are
 * therefore the ones a reader of events.jsonl computes.
 */
export function recorderTriggerClock(recorder: Recorder): TriggerClock {
  let startedAt: number | null = null;
  // The selection step runs right after its OPERATION_OBSERVED is recorded, in the same tick.
  let observedAt = 0;
  recorder.onEvent((event) => {
    if (event.type === "OPERATION_OBSERVED") observedAt = event.elapsed_ms;
    else if (event.type === "WORKLOAD_STARTED" && startedAt === null) startedAt = event.elapsed_ms;
  });
  return {
    now: () => recorder.elapsedMs(),
    observedAt: () => observedAt,
    workloadStartedAt: () => startedAt,
  };
}
