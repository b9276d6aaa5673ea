/**
 * The response headers a cassette keeps (docs/replay.md): the content type, the retry hints,
 * rate-limit and request-id headers; never one named like a key, token, secret, cookie or
 * authorization, whatever else its name says.
 */
const KEPT = [/^content-type$/, /^retry-after(-ms)?$/, /rate-?limit/, /(^|-)request-id$/];
const NEVER = /key|token|secret|cookie|auth|password|session/;

export function keptResponseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return !NEVER.test(lower) && KEPT.some((pattern) => pattern.test(lower));
}

/** The allowlisted headers of a response, values of repeated headers joined by ", ". */
export function keptResponseHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !keptResponseHeader(name)) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return kept;
}
