/** The current second's IMF-fixdate, computed once per second. */
let second = -1;
let text = "";

/**
 * The `Date` value of a response the proxy sends without one from the upstream (its own
 * answers, an upstream answer that had none), as Node's HTTP server writes it for the full
 * pipeline: a forwarded response always carries a date.
 */
export function httpDate(): string {
  const now = Math.floor(Date.now() / 1000);
  if (now !== second) {
    second = now;
    text = new Date(now * 1000).toUTCString();
  }
  return text;
}
