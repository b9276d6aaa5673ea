import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";

/** The hop-by-hop set of docs/proxy.md; never forwarded in either direction. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Request headers never forwarded upstream: the hop-by-hop set, `host` and `content-length`
 * (docs/proxy.md), plus `expect`, which is answered by the proxy's own HTTP server (an upstream
 * `100 Continue` cannot be relayed once the body has been read whole).
 */
const DROPPED_REQUEST = new Set([...HOP_BY_HOP, "host", "content-length", "expect"]);

/** Response headers never relayed: the hop-by-hop set and `content-length` (own framing). */
const DROPPED_RESPONSE = new Set([...HOP_BY_HOP, "content-length"]);

/**
 * The header names a `Connection` header lists (RFC 9110 7.6.1): hop-by-hop by declaration,
 * so never forwarded either. Lower case; null when there are none.
 */
function connectionOptions(values: Iterable<string>): Set<string> | null {
  const options = new Set<string>();
  for (const value of values) {
    for (const token of value.split(",")) {
      const name = token.trim().toLowerCase();
      if (name !== "") options.add(name);
    }
  }
  return options.size === 0 ? null : options;
}

/**
 * Filters Node's flat `rawHeaders` (name, value, name, value, …) for the upstream request,
 * keeping order, duplicates and the client's spelling of the names.
 */
export function upstreamRequestHeaders(rawHeaders: readonly string[]): string[] {
  const connection: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() === "connection")
      connection.push(rawHeaders[i + 1] as string);
  }
  const listed = connectionOptions(connection);
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (forwardsRequestHeader(lower, listed)) kept.push(name, rawHeaders[i + 1] as string);
  }
  return kept;
}

/** Whether a request header (lower-case name) goes upstream, given the names `Connection` lists. */
export function forwardsRequestHeader(lower: string, listed: ReadonlySet<string> | null): boolean {
  return !DROPPED_REQUEST.has(lower) && listed?.has(lower) !== true;
}

/** Whether a response header (lower-case name) goes to the workload, given the names `Connection` lists. */
export function relaysResponseHeader(lower: string, listed: ReadonlySet<string> | null): boolean {
  return !DROPPED_RESPONSE.has(lower) && listed?.has(lower) !== true;
}

/** Filters upstream response headers (lower-case names) for the workload. */
export function clientResponseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const connection = headers.connection;
  const listed = connection === undefined ? null : connectionOptions([connection]);
  const kept: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && relaysResponseHeader(name, listed)) kept[name] = value;
  }
  return kept;
}

/** True when a response's `Content-Type` is `text/event-stream` (parameters ignored). */
export function isEventStream(headers: IncomingHttpHeaders): boolean {
  return isEventStreamType(headers["content-type"]);
}

/** True when a `Content-Type` value is `text/event-stream` (parameters ignored). */
export function isEventStreamType(value: string | null | undefined): boolean {
  if (typeof value !== "string") return false;
  const semicolon = value.indexOf(";");
  const mediaType = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === "text/event-stream";
}
