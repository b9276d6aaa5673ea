/** Small runs for the check tests, built from schema-2 events with exact times. */
import { analyzeEvents } from "../../src/analysis/run-analysis.js";
import type { FindingOf } from "../../src/checks/types.js";
import type { CheckName, ChecksConfig } from "../../src/scenario/types.js";
import { checksConfig } from "../analysis/schema-2/scenarios.js";
import { type RunBuilder, runBuilder } from "../helpers/events.js";

/** What one check finds in a run, analysed with only that check on and no fault. */
export function findingsOf<N extends CheckName>(
  name: N,
  run: RunBuilder,
  config: ChecksConfig[N],
): FindingOf[N][] {
  const checks = checksConfig({ retry_after: "off", retry_storm: "off", duplicate_writes: "off" });
  const evidence = analyzeEvents(
    {
      dependencies: [],
      faults: [],
      recovery: "chain",
      checks: { ...checks, [name]: { ...config, mode: "report" } },
      success: { exitCode: 0 },
    },
    run.events(),
  );
  const [outcome] = evidence.checks;
  if (outcome?.name !== name) throw new Error(`${name} was not evaluated`);
  return outcome.findings as FindingOf[N][];
}

/** How the analysis of a run names its operations (`api GET /customer/123 #1`). */
export function labelOf(run: RunBuilder): (operationId: string) => string {
  return analyzeEvents(
    {
      dependencies: [],
      faults: [],
      recovery: "chain",
      checks: checksConfig(),
      success: { exitCode: 0 },
    },
    run.events(),
  ).label;
}

/**
 * op-1 fails at 1000 ms asking for `retryAfterMs`; its retry op-2 is observed `gapMs` later and
 * succeeds.
 */
export function retriedAfter(gapMs: number, retryAfterMs: number | null): RunBuilder {
  return runBuilder()
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
export function chainOf(length: number, gapMs = 1000, retryAfterMs: number | null = null): RunBuilder {
  const run = runBuilder().setup();
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
