/** The closed vocabularies of the model-answer faults (docs/faults.md, "Model faults"). */

/** The API whose answer `llm_misbehave` rewrites. */
export const MISBEHAVE_PROVIDERS = ["openai", "openai_responses", "anthropic"] as const;
export type MisbehaveProvider = (typeof MISBEHAVE_PROVIDERS)[number];

/** What `llm_misbehave` does to the answer. */
export const MISBEHAVE_KINDS = [
  "tool_args_invalid",
  "unknown_tool",
  "empty",
  "refusal",
  "length_mid_tool",
  "content_filter",
  "missing_finish",
] as const;
export type MisbehaveKind = (typeof MISBEHAVE_KINDS)[number];

/** Whose 401 error body `http_auth_expired` answers with (`generic` by default). */
export const AUTH_EXPIRED_PROVIDERS = ["openai", "anthropic", "generic"] as const;
export type AuthExpiredProvider = (typeof AUTH_EXPIRED_PROVIDERS)[number];

/** The error type Anthropic names a status with (docs/faults.md, "http_llm_error"). */
const ANTHROPIC_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The error type of a status: from `more`, else Anthropic's, else `api_error` from 500 on, else `invalid_request_error`. */
export function errorTypeOf(status: number, more: Readonly<Record<number, string>> = {}): string {
  return (
    more[status] ?? ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error")
  );
}

/** `"a", "b" or "c"`: the words of an enumeration in a validation message. */
export function quotedList(values: readonly string[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}
