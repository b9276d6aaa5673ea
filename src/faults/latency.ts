import type { FaultExecutor, FaultOf } from "./types.js";

/**
 * `http_latency`: wait `latency_ms` (plus the drawn jitter, `delay_ms` of the injection's
 * parameters when the fault has `jitter_ms`), then forward as usual (unless the wait was
 * abandoned).
 */
export const latency: FaultExecutor<FaultOf<"http_latency">> = {
  parameters: (fault) => ({ latency_ms: fault.latencyMs }),
  async execute(fault, context, injection) {
    if (await context.hold(injection?.delay_ms ?? fault.latencyMs)) context.forward();
  },
};
