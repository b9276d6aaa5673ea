import { describe, expect, it } from "vitest";
import { parseHttpDate, retryAfterMs } from "../../src/proxy/retry-after.js";

const NOW = Date.UTC(2026, 10, 29, 18, 38, 21, 250);

describe("retryAfterMs", () => {
  it("reads Retry-After in integer seconds, 0 included", () => {
    expect(retryAfterMs({ "retry-after": "1" }, NOW)).toBe(1000);
    expect(retryAfterMs({ "retry-after": "0" }, NOW)).toBe(0);
    expect(retryAfterMs({ "Retry-After": " 30 " }, NOW)).toBe(30_000);
  });

  it("reads an HTTP-date Retry-After as the time left after the response, never below 0", () => {
    expect(retryAfterMs({ "retry-after": "Sun, 29 Nov 2026 18:38:23 GMT" }, NOW)).toBe(1750);
    expect(retryAfterMs({ "retry-after": "Sun, 29 Nov 2026 18:38:20 GMT" }, NOW)).toBe(0);
    expect(retryAfterMs({ "retry-after": "Sunday, 29-Nov-26 18:38:31 GMT" }, NOW)).toBe(9750);
    expect(retryAfterMs({ "retry-after": "Sun Nov 29 18:38:41 2026" }, NOW)).toBe(19_750);
  });

  it("prefers a non-negative retry-after-ms and rounds a fraction up", () => {
    expect(retryAfterMs({ "retry-after-ms": "1500", "retry-after": "3" }, NOW)).toBe(1500);
    expect(retryAfterMs({ "retry-after-ms": "0" }, NOW)).toBe(0);
    expect(retryAfterMs({ "retry-after-ms": "12.2" }, NOW)).toBe(13);
  });

  it("falls back to Retry-After when retry-after-ms is negative or not a number", () => {
    expect(retryAfterMs({ "retry-after-ms": "-5", "retry-after": "2" }, NOW)).toBe(2000);
    expect(retryAfterMs({ "retry-after-ms": "soon", "retry-after": "2" }, NOW)).toBe(2000);
    expect(retryAfterMs({ "retry-after-ms": "-5" }, NOW)).toBeNull();
  });

  it.each([
    ["a negative number of seconds", "-1"],
    ["a fraction of seconds", "1.5"],
    ["words", "soon"],
    ["an empty value", ""],
    ["a date with an impossible day", "Mon, 31 Nov 2026 18:38:23 GMT"],
    ["a date without GMT", "Sun, 29 Nov 2026 18:38:23 UTC"],
    ["an ISO date", "2026-11-29T18:38:23Z"],
    ["an hour out of range", "Sun, 29 Nov 2026 24:00:00 GMT"],
  ])("returns null for a malformed Retry-After: %s", (_, value) => {
    expect(retryAfterMs({ "retry-after": value }, NOW)).toBeNull();
  });

  it("returns null without either header and uses the first of repeated values", () => {
    expect(retryAfterMs({ "content-type": "application/json" }, NOW)).toBeNull();
    expect(retryAfterMs({ "retry-after": ["2", "5"] }, NOW)).toBe(2000);
  });
});

describe("parseHttpDate", () => {
  it("reads a two-digit RFC 850 year as the most recent one not more than 50 years ahead", () => {
    expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseHttpDate("Monday, 06-Nov-76 08:49:37 GMT", NOW)).toBe(Date.UTC(2076, 10, 6, 8, 49, 37));
    expect(parseHttpDate("Friday, 06-Nov-77 08:49:37 GMT", NOW)).toBe(Date.UTC(1977, 10, 6, 8, 49, 37));
  });

  it("reads asctime with a space-padded day", () => {
    expect(parseHttpDate("Sun Nov  6 08:49:37 1994", NOW)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });
});
