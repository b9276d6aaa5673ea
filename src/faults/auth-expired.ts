import { llmErrorResponse } from "./llm-error.js";
import type { FaultExecutor, FaultOf, SyntheticResponse } from "./types.js";

/** The body of the default, `generic`, provider. */
const GENERIC_BODY = '{"error": "token expired"}';

/** The exact response of an `http_auth_expired` fault (docs/faults.md). */
export function authExpiredResponse(fault: FaultOf<"http_auth_expired">): SyntheticResponse {
  const body =
    fault.provider === "generic"
      ? GENERIC_BODY
      : llmErrorResponse({
          type: "http_llm_error",
          provider: fault.provider,
          statusCode: 401,
          retryAfterSeconds: null,
          retryAfterMs: null,
          shouldRetry: null,
        }).body;
  return {
    status: 401,
    headers: {
      "Content-Type": "application/json",
      "WWW-Authenticate": 'Bearer error="invalid_token"',
      "X-Agent-Chaos-Fault": "http_auth_expired",
    },
    body,
  };
}

/** `http_auth_expired`: a 401 saying the bearer token expired; the upstream never sees the request. */
export const authExpired: FaultExecutor<FaultOf<"http_auth_expired">> = {
  parameters: () => ({}),
  execute(fault, context) {
    context.respond(authExpiredResponse(fault), "injected_auth_expired");
  },
};
