import {
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from "node:http";
import { openReadinessConnection, type ReadinessAddress, readinessAddress } from "./readiness-connection.js";

export type ReadinessOutcome =
  | { readonly ready: true }
  | { readonly ready: false; readonly reason: "timeout" | "aborted" };

const ATTEMPT_TIMEOUT_MS = 500;

/** What one readiness attempt got: a status, or why there was none (a system code such as ECONNREFUSED, or `timeout`). */
export type ProbeResult = { readonly status: number } | { readonly error: string };

/** Filled in while waiting, so a failure can say what was seen. */
export interface ReadinessLog {
  polls: number;
  last: ProbeResult | null;
}

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
/** The pause between attempt starts once the first ones have passed: "about every 50 ms". */
const INTERVAL_MS = 50;
/** The first pauses are shorter (5, 10, 20, 40 ms, then 50): a dependency that starts fast is seen at once. */
const FIRST_PAUSE_MS = 5;
/** Attempts never start closer together than this, however often the dependency prints. */
const MIN_PAUSE_MS = 5;

/**
 * Lets the dependency's own output cut a pause short: most servers print a line when they
 * start listening, so an attempt right then finds them ready without waiting for the next
 * tick. Each `nudge` (a chunk of output) ends the current pause, or the next one when an
 * attempt is under way.
 */
export class ReadinessWake {
  #pending = false;
  #wake: (() => void) | null = null;

  nudge(): void {
    this.#pending = true;
    this.#wake?.();
  }

  /** Whether a nudge came since the last call (and forgets it). */
  take(): boolean {
    const pending = this.#pending;
    this.#pending = false;
    return pending;
  }

  /** Registers what ends the current pause (null: none is under way). */
  onNudge(wake: (() => void) | null): void {
    this.#wake = wake;
  }
}

/**
 * Polls `GET target.url` until a status 200–399: the first attempt at once, then after 5, 10,
 * 20 and 40 ms, then about every 50 ms (pauses measured from each attempt's start), each
 * attempt limited to 0.5 s; output of the dependency (`wake`) brings the next attempt forward.
 * Redirects are not followed; proxy environment variables are ignored (Node's HTTP client reads
 * none). `stop` aborts the wait (dependency exited, interruption).
 */
export async function waitUntilReady(
  target: { readonly url: string; readonly headers: Record<string, string> },
  timeoutMs: number,
  stop: AbortSignal,
  log: ReadinessLog = { polls: 0, last: null },
  wake: ReadinessWake = new ReadinessWake(),
): Promise<ReadinessOutcome> {
  const deadline = Date.now() + timeoutMs;
  const address = target.url.startsWith("https:") ? null : readinessAddress(target.url);
  let interval = FIRST_PAUSE_MS;
  while (!stop.aborted) {
    const started = Date.now();
    if (started >= deadline) return { ready: false, reason: "timeout" };
    const limitMs = Math.min(ATTEMPT_TIMEOUT_MS, deadline - started);
    const attempt = AbortSignal.any([stop, AbortSignal.timeout(limitMs)]);
    wake.take();
    const result = await probe(target, address, attempt);
    if (stop.aborted) break;
    // An attempt the overall deadline cut short says nothing about the dependency: not logged.
    const cutShort = "error" in result && result.error === "timeout" && limitMs < ATTEMPT_TIMEOUT_MS;
    if (!cutShort) {
      log.polls += 1;
      log.last = result;
    }
    if ("status" in result && result.status >= 200 && result.status < 400) return { ready: true };
    const pauseUntil = (ms: number): number => Math.min(ms - (Date.now() - started), deadline - Date.now());
    const pause = pauseUntil(wake.take() ? MIN_PAUSE_MS : interval);
    interval = Math.min(INTERVAL_MS, interval * 2);
    if (pause > 0) await sleep(pause, stop, wake, started + MIN_PAUSE_MS);
  }
  return { ready: false, reason: "aborted" };
}

/** The system code of a failed attempt, `timeout` when it was cut off. */
function errorCode(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timeout";
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code) ? code : "error";
}

/**
 * One readiness attempt on a fresh connection: the status, or why there was none. An http
 * attempt opens its connection first (`address`) and sends the request only once it is open.
 * TLS is loaded only for an https readiness URL, so that a run of plain http dependencies does
 * not pay for it before they start (docs/performance.md).
 */
async function probe(
  target: { readonly url: string; readonly headers: Record<string, string> },
  address: ReadinessAddress | null,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const common = { method: "GET", headers: target.headers, signal };
  let send: (
    url: string,
    options: RequestOptions,
    onResponse: (response: IncomingMessage) => void,
  ) => ClientRequest;
  let options: RequestOptions;
  if (address === null) {
    send = (await import("node:https")).request;
    options = { ...common, agent: false };
  } else {
    const opened = await openReadinessConnection(address, signal);
    if ("failure" in opened) return { error: errorCode(opened.failure, signal) };
    send = httpRequest;
    // No agent: the request goes over the connection just opened, then closes it, as a fresh
    // agent's request does.
    options = { ...common, createConnection: () => opened.socket };
  }
  return new Promise((resolve) => {
    const outgoing = send(target.url, options, (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      response.on("end", () => resolve({ status }));
      response.on("error", (error) => resolve({ error: errorCode(error, signal) }));
      response.on("close", () => resolve({ error: errorCode(null, signal) }));
    });
    outgoing.on("error", (error) => resolve({ error: errorCode(error, signal) }));
    outgoing.end();
  });
}

/**
 * Waits `ms`, or less when `signal` aborts, or when `wake` is nudged (then until `earliest`,
 * a `Date.now()` time, at the soonest).
 */
function sleep(ms: number, signal: AbortSignal, wake: ReadinessWake, earliest: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      wake.onNudge(null);
      signal.removeEventListener("abort", done);
      resolve();
    }
    wake.onNudge(() => {
      wake.onNudge(null);
      wake.take();
      clearTimeout(timer);
      timer = setTimeout(done, Math.max(0, earliest - Date.now()));
    });
    signal.addEventListener("abort", done, { once: true });
  });
}
