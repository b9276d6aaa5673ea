import type { Recorder } from "../events/recorder.js";
import type { TriggerClock } from "../triggers/index.js";

/**
 * The clock outages and quotas read (docs/triggers.md): the recorder's `elapsed_ms`, and the
 * `elapsed_ms` of the run's `WORKLOAD_STARTED` once it is recorded. An outage's offsets are
 * therefore the ones a reader of events.jsonl computes.
 */
export function recorderTriggerClock(recorder: Recorder): TriggerClock {
  let startedAt: number | null = null;
  recorder.onEvent((event) => {
    if (event.type === "WORKLOAD_STARTED" && startedAt === null) startedAt = event.elapsed_ms;
  });
  return { now: () => recorder.elapsedMs(), workloadStartedAt: () => startedAt };
}
