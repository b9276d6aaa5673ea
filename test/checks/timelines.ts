/** Small timelines for the check tests, built from schema-2 events with exact times. */
import { buildTimeline, type Timeline } from "../../src/events/timeline.js";
import { type RunBuilderV2, runBuilderV2 } from "../helpers/events-v2.js";

export function timelineOf(run: RunBuilderV2): Timeline {
  return buildTimeline(run.events());
}

/**
 * op-1 fails at 1000 ms asking for `retryAfterMs`; its retry op-2 is observed `gapMs` later and
 * succeeds.
 */
export function retriedAfter(gapMs: number, retryAfterMs: number | null): RunBuilderV2 {
  return runBuilderV2()
    .setup()
    .at(900)
    .observed("op-1", "fp-a")
    .injected("op-1", "f1", "http_rate_limit", { retry_after_seconds: 1 })
    .at(1000)
    .failed("op-1", "injected_rate_limit", { retryAfterMs })
    .at(1000 + gapMs)
    .observed("op-2", "fp-a")
    .retry("op-2", "op-1")
    .succeeded("op-2");
}

/** A chain of `length` operations on one fingerprint, `gapMs` apart, the last one succeeding. */
export function chainOf(length: number, gapMs = 1000, retryAfterMs: number | null = null): RunBuilderV2 {
  const run = runBuilderV2().setup();
  let t = 0;
  for (let i = 1; i <= length; i++) {
    run.at(t).observed(`op-${i}`, "fp-a");
    if (i > 1) run.retry(`op-${i}`, "op-1", i);
    if (i === length) {
      run.succeeded(`op-${i}`);
    } else {
      run.injected(`op-${i}`);
      run.at(t + 5).failed(`op-${i}`, "injected_http_error", { retryAfterMs });
    }
    t += 5 + gapMs;
  }
  return run;
}
