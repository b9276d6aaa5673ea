import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_latency`: wait `latency_ms`, then forward as usual (unless the wait was abandoned). */
export const latency: FaultExecutor<FaultOf<"http_latency">> = {
  parameters: (fault) => ({ latency_ms: fault.latencyMs }),
  async execute(fault, context) {
    if (await context.hold(fault.latencyMs)) context.forward();
  },
};
