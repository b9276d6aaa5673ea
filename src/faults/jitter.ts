/**
 * `http_latency`'s `jitter_ms` (see docs/faults.md): each injection waits `latency_ms` plus an
 * extra delay drawn from 0 to `jitter_ms` inclusive. The draws are reproducible: the n-th
 * injection of a fault draws the first six bytes of SHA-256(`<seed>:<fault id>:<n>`) modulo
 * `jitter_ms + 1`, so the same seed gives the same delays. The seed is the fault's
 * `jitter_seed`, or one derived from the run id (the first 32 bits of SHA-256 of the run id), so
 * every run differs while each run's delays are recorded in its `FAULT_INJECTED` events
 * (`delay_ms`, with `jitter_seed`) and can be replayed by setting that seed.
 */
import { createHash } from "node:crypto";
import type { Scenario } from "../scenario/types.js";

/** The seed a run without `jitter_seed` uses: 0 to 2^32 − 1, from its run id. */
export function seedFromRunId(runId: string): number {
  return createHash("sha256").update(runId).digest().readUInt32BE(0);
}

/** The extra delay of the `ordinal`-th injection (1-based) of fault `faultId`. */
export function jitterDraw(seed: number, faultId: string, ordinal: number, jitterMs: number): number {
  const digest = createHash("sha256").update(`${seed}:${faultId}:${ordinal}`).digest();
  return digest.readUIntBE(0, 6) % (jitterMs + 1);
}

/** The draws of one armed fault, in injection order. */
export function jitterDraws(
  seed: number,
  faultId: string,
  latencyMs: number,
  jitterMs: number,
): () => Record<string, number> {
  let ordinal = 0;
  return () => {
    ordinal += 1;
    const delay = latencyMs + jitterDraw(seed, faultId, ordinal, jitterMs);
    return { latency_ms: latencyMs, jitter_ms: jitterMs, jitter_seed: seed, delay_ms: delay };
  };
}

/** A jittered latency without its own `jitter_seed`. */
function lacksSeed(fault: Scenario["faults"][number]): boolean {
  return fault.type === "http_latency" && fault.jitterMs !== null && fault.jitterSeed === null;
}

/** The scenario with every jittered latency's missing `jitter_seed` taken from the run id. */
export function withJitterSeeds<S extends Scenario>(scenario: S, runId: string): S {
  if (!scenario.faults.some(lacksSeed)) return scenario;
  const seed = seedFromRunId(runId);
  return {
    ...scenario,
    faults: scenario.faults.map((fault) => (lacksSeed(fault) ? { ...fault, jitterSeed: seed } : fault)),
  };
}
