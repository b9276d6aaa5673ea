import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_error`: answer `status_code` with a fixed JSON body; the upstream never sees the request. */
export const httpError: FaultExecutor<FaultOf<"http_error">> = {
  parameters: (fault) => ({ status_code: fault.statusCode }),
  execute(fault, context) {
    context.respond(
      {
        status: fault.statusCode,
        headers: { "X-Agent-Chaos-Fault": "http_error", "Content-Type": "application/json" },
        body: '{"error":"injected by Agent Chaos"}',
      },
      "injected_http_error",
    );
  },
};
