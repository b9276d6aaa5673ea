import type { FaultExecutor, FaultOf, SyntheticResponse } from "./types.js";

/** A JSON answer marked with the fault's type; `first`: headers sent before the marker. */
function jsonAnswer(
  type: string,
  status: number,
  body: string,
  first: Readonly<Record<string, string>> = {},
): SyntheticResponse {
  return {
    status,
    headers: { ...first, "X-Agent-Chaos-Fault": type, "Content-Type": "application/json" },
    body,
  };
}

/** `http_error`: answer `status_code` with a fixed JSON body; the upstream never sees the request. */
export const httpError: FaultExecutor<FaultOf<"http_error">> = {
  parameters: (fault) => ({ status_code: fault.statusCode }),
  execute(fault, context) {
    const answer = jsonAnswer("http_error", fault.statusCode, '{"error":"injected by Agent Chaos"}');
    context.respond(answer, "injected_http_error");
  },
};

/** `http_malformed_json`: answer 200 with JSON whose closing brace is missing on purpose. */
export const malformedJson: FaultExecutor<FaultOf<"http_malformed_json">> = {
  parameters: () => ({}),
  execute(_fault, context) {
    const answer = jsonAnswer("http_malformed_json", 200, '{"error":"injected by Agent Chaos"');
    context.respond(answer, "injected_malformed_json");
  },
};

/** `http_rate_limit`: answer 429 with an integer `Retry-After`; the upstream never sees the request. */
export const rateLimit: FaultExecutor<FaultOf<"http_rate_limit">> = {
  // `auto` is replaced at each selection by the quota's wait (faults/registry.ts).
  parameters: (fault) => ({
    retry_after_seconds: fault.retryAfterSeconds === "auto" ? 0 : fault.retryAfterSeconds,
  }),
  execute(fault, context, injection) {
    const retryAfter = String(injection?.retry_after_seconds ?? fault.retryAfterSeconds);
    const answer = jsonAnswer("http_rate_limit", 429, '{"error": "rate limited by Agent Chaos"}', {
      "Retry-After": retryAfter,
    });
    context.respond(answer, "injected_rate_limit");
  },
};

/** `http_disconnect`: end the workload's connection without a byte; nothing goes upstream. */
export const disconnect: FaultExecutor<FaultOf<"http_disconnect">> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.disconnect("injected_disconnect");
  },
};
