import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_rate_limit`: answer 429 with an integer `Retry-After`; the upstream never sees the request. */
export const rateLimit: FaultExecutor<FaultOf<"http_rate_limit">> = {
  // `auto` is replaced at each selection by the quota's wait (faults/registry.ts).
  parameters: (fault) => ({
    retry_after_seconds: fault.retryAfterSeconds === "auto" ? 0 : fault.retryAfterSeconds,
  }),
  execute(fault, context, injection) {
    context.respond(
      {
        status: 429,
        headers: {
          "Retry-After": String(injection?.retry_after_seconds ?? fault.retryAfterSeconds),
          "X-Agent-Chaos-Fault": "http_rate_limit",
          "Content-Type": "application/json",
        },
        body: '{"error": "rate limited by Agent Chaos"}',
      },
      "injected_rate_limit",
    );
  },
};
