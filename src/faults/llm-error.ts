import { errorTypeOf } from "../scenario/model-faults.js";
import type { LlmErrorFault } from "../scenario/types.js";
import type { FaultExecutor, FaultOf, SyntheticResponse } from "./types.js";

type Provider = LlmErrorFault["provider"];

/** The error `type` (and OpenAI `code`) a provider sends with a status (docs/faults.md). */
function errorShape(provider: Provider, status: number): { type: string; code: string | null } {
  if (provider === "anthropic") {
    return { type: errorTypeOf(status), code: null };
  }
  if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
  if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
  return { type: status >= 500 ? "server_error" : "invalid_request_error", code: null };
}

/** The exact response of an `http_llm_error` fault: fixed bytes, nothing from dependency traffic. */
export function llmErrorResponse(fault: FaultOf<"http_llm_error">): SyntheticResponse {
  const { type, code } = errorShape(fault.provider, fault.statusCode);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Agent-Chaos-Fault": "http_llm_error",
  };
  if (fault.retryAfterSeconds !== null) headers["Retry-After"] = String(fault.retryAfterSeconds);
  if (fault.retryAfterMs !== null) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.shouldRetry !== null) headers["x-should-retry"] = String(fault.shouldRetry);
  const body =
    fault.provider === "openai"
      ? `{"error":{"message":"Injected by Agent Chaos","type":"${type}","param":null,"code":${code === null ? "null" : `"${code}"`}}}`
      : `{"type":"error","error":{"type":"${type}","message":"Injected by Agent Chaos"}}`;
  return { status: fault.statusCode, headers, body };
}

/** `http_llm_error`: a provider-shaped error response; the upstream never sees the request. */
export const llmError: FaultExecutor<FaultOf<"http_llm_error">> = {
  parameters(fault) {
    const parameters: Record<string, number> = { status_code: fault.statusCode };
    if (fault.retryAfterSeconds !== null) parameters.retry_after_seconds = fault.retryAfterSeconds;
    if (fault.retryAfterMs !== null) parameters.retry_after_ms = fault.retryAfterMs;
    return parameters;
  },
  execute(fault, context) {
    // `respond` records the wait the headers ask for (retry_after_ms).
    context.respond(llmErrorResponse(fault), "injected_llm_error");
  },
};
