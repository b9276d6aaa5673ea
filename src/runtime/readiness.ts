import { Agent, request } from "undici";

export type ReadinessOutcome =
  | { readonly ready: true }
  | { readonly ready: false; readonly reason: "timeout" | "aborted" };

const ATTEMPT_TIMEOUT_MS = 500;

/**
 * Where readiness is polled: the base URL's origin and path prefix (its query and fragment
 * dropped, as the proxy does) plus the readiness path; user information becomes Basic credentials.
 */
export function readinessTarget(
  baseUrl: string,
  path: string,
): { url: string; headers: Record<string, string> } {
  const base = new URL(baseUrl);
  const headers: Record<string, string> = {};
  if (base.username !== "" || base.password !== "") {
    const credentials = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  return { url: `${base.origin}${base.pathname.replace(/\/+$/, "")}${path}`, headers };
}
const INTERVAL_MS = 50;

/**
 * Polls `GET target.url` about every 50 ms, each attempt limited to 0.5 s, until a status 200–399.
 * Redirects are not followed; proxy environment variables are ignored (a plain undici Agent).
 * `stop` aborts the wait (dependency exited, interruption).
 */
export async function waitUntilReady(
  target: { readonly url: string; readonly headers: Record<string, string> },
  timeoutMs: number,
  stop: AbortSignal,
): Promise<ReadinessOutcome> {
  const dispatcher = new Agent({ keepAliveTimeout: 10, connectTimeout: ATTEMPT_TIMEOUT_MS });
  const deadline = Date.now() + timeoutMs;
  try {
    while (!stop.aborted) {
      const started = Date.now();
      if (started >= deadline) return { ready: false, reason: "timeout" };
      const attempt = AbortSignal.any([
        stop,
        AbortSignal.timeout(Math.min(ATTEMPT_TIMEOUT_MS, deadline - started)),
      ]);
      try {
        const response = await request(target.url, {
          method: "GET",
          headers: target.headers,
          dispatcher,
          signal: attempt,
        });
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 400) return { ready: true };
      } catch {
        // Not listening yet, reset, or the attempt timed out: try again.
      }
      const pause = Math.min(INTERVAL_MS - (Date.now() - started), deadline - Date.now());
      if (pause > 0) await sleep(pause, stop);
    }
    return { ready: false, reason: "aborted" };
  } finally {
    await dispatcher.destroy();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
