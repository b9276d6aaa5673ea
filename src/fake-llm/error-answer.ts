import type { ScriptError } from "./script-schema.js";

/** The error type a status gets when the rule names none (the providers' own words). */
const DEFAULT_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  409: "conflict_error",
  413: "request_too_large",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  502: "api_error",
  503: "overloaded_error",
  529: "overloaded_error",
};

/** A script rule's error answer: its status, headers, and the type and message of the provider's error body. */
export function errorAnswer(error: ScriptError): {
  status: number;
  headers: Record<string, string>;
  type: string;
  message: string;
} {
  const type =
    error.type ??
    DEFAULT_TYPES[error.status] ??
    (error.status >= 500 ? "api_error" : "invalid_request_error");
  return {
    status: error.status,
    headers:
      error.retry_after_seconds === undefined ? {} : { "Retry-After": String(error.retry_after_seconds) },
    type,
    message: error.message ?? `fake-llm script error ${error.status}`,
  };
}
