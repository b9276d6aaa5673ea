/** One event of a run's events.jsonl, as far as the outage rule reads it. */
interface TimedEvent {
  readonly type: string;
  readonly elapsed_ms?: number;
  readonly payload?: { readonly dependency?: unknown };
}

/**
 * The outage rule (docs/triggers.md): a request is selected when it is observed `startMs` to
 * `startMs + durationMs` (end excluded) after WORKLOAD_STARTED, on the events' clock. How many
 * requests of the run (of `dependency` only, when given) were observed, and how many of them
 * inside that window (none of either without a WORKLOAD_STARTED).
 */
export function observedInOutage(
  events: readonly TimedEvent[],
  outage: { readonly startMs: number; readonly durationMs: number },
  dependency?: string,
): { readonly observed: number; readonly inside: number } {
  const started = events.find((event) => event.type === "WORKLOAD_STARTED")?.elapsed_ms;
  if (started === undefined) return { observed: 0, inside: 0 };
  const offsets = events
    .filter(
      (event) =>
        event.type === "OPERATION_OBSERVED" &&
        (dependency === undefined || event.payload?.dependency === dependency),
    )
    .map((event) => (event.elapsed_ms ?? Number.NaN) - started);
  const inside = offsets.filter(
    (offset) => offset >= outage.startMs && offset < outage.startMs + outage.durationMs,
  ).length;
  return { observed: offsets.length, inside };
}
