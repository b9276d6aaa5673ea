/** The column labels of explore's default menu and of what `--menu extended` adds after them. */
export const DEFAULT_COLUMNS = [
  "http_error status_code=503",
  "http_rate_limit retry_after_seconds=1",
  "http_disconnect",
  "http_response_lost",
];

export const EXTENDED_COLUMNS = [
  "http_corrupt first_leaf sinks=stdout+others expect=handle",
  "llm_misbehave provider=openai kind=tool_args_invalid",
  "llm_misbehave provider=openai kind=empty",
  "http_error status_code=503 outage_ms=2000",
];
