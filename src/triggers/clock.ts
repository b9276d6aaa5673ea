import { performance } from "node:perf_hooks";
import type { TriggerClock } from "./types.js";

/**
 * A trigger clock of its own, for a proxy started outside a run (the library, tests): whole
 * milliseconds since it was made, the workload counted as started then. A run passes the clock
 * of its events instead.
 */
export function clockStartedNow(): TriggerClock {
  const origin = performance.now();
  const now = () => Math.floor(performance.now() - origin);
  return { now, observedAt: now, workloadStartedAt: () => 0 };
}
