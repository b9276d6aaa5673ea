/**
 * `retry_after_ms` of docs/checks.md: the wait a response asked for. Pure; the proxy calls it
 * with the headers of the response the workload received and the time that response was sent.
 */

/** Response headers by name (any case); a repeated header may be given as a list. */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[] | number | undefined>>;

const DECIMAL = /^\d+(?:\.\d+)?$/;
const SECONDS = /^\d+$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete) */
const RFC850_DATE = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
/** `Sun Nov  6 08:49:37 1994` (obsolete) */
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** The first value of a header, matched case-insensitively; surrounding whitespace removed. */
function headerValue(headers: ResponseHeaders, name: string): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    const first = typeof value === "object" ? value[0] : value;
    return first === undefined ? null : String(first).trim();
  }
  return null;
}

/** A UTC instant in ms, or null when the fields do not name a real date and time. */
function utc(year: number, month: string, day: number, hour: number, minute: number, second: number) {
  const monthIndex = MONTHS.indexOf(month);
  const time = Date.UTC(year, monthIndex, day, hour, minute, second);
  const date = new Date(time);
  const valid =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === monthIndex &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  return valid ? time : null;
}

/**
 * An HTTP date (IMF-fixdate, or the obsolete RFC 850 and asctime forms of HTTP; docs/checks.md) in
 * ms since the epoch, or null. A two-digit RFC 850 year is the most recent year with those
 * digits that is not more than 50 years after `nowMs`.
 */
export function parseHttpDate(text: string, nowMs: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) {
    const [, day, month, year, hour, minute, second] = match as unknown as string[];
    return utc(Number(year), month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  match = RFC850_DATE.exec(text);
  if (match !== null) {
    const [, day, month, yy, hour, minute, second] = match as unknown as string[];
    const currentYear = new Date(nowMs).getUTCFullYear();
    let year = currentYear - (currentYear % 100) + Number(yy);
    if (year > currentYear + 50) year -= 100;
    return utc(year, month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  match = ASCTIME_DATE.exec(text);
  if (match !== null) {
    const [, month, day, hour, minute, second, year] = match as unknown as string[];
    return utc(Number(year), month as string, Number(day), Number(hour), Number(minute), Number(second));
  }
  return null;
}

/**
 * The wait in whole milliseconds that a response asks for (docs/checks.md, `retry_after_ms`):
 * `retry-after-ms` when it is a non-negative decimal number (a fraction is rounded up);
 * otherwise `Retry-After` as integer seconds × 1000, or as an HTTP date minus
 * `responseTimeMs` (at least 0); otherwise, or when a value is malformed, null.
 */
export function retryAfterMs(headers: ResponseHeaders, responseTimeMs: number): number | null {
  const ms = headerValue(headers, "retry-after-ms");
  if (ms !== null && DECIMAL.test(ms)) {
    const value = Math.ceil(Number(ms));
    if (Number.isSafeInteger(value)) return value;
  }
  const retryAfter = headerValue(headers, "retry-after");
  if (retryAfter === null) return null;
  if (SECONDS.test(retryAfter)) {
    const value = Number(retryAfter) * 1000;
    return Number.isSafeInteger(value) ? value : null;
  }
  const date = parseHttpDate(retryAfter, responseTimeMs);
  return date === null ? null : Math.max(0, Math.ceil(date - responseTimeMs));
}
