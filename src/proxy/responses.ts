import { type ServerResponse, STATUS_CODES } from "node:http";
import type { SyntheticResponse } from "../faults/types.js";
import { httpDate } from "./http-date.js";
import { upstreamFailure } from "./upstream-failure.js";

/** The methods the proxy forwards (docs/proxy.md). */
export const FORWARDED_METHODS: ReadonlySet<string> = new Set([
  "DELETE",
  "GET",
  "HEAD",
  "OPTIONS",
  "PATCH",
  "POST",
  "PUT",
]);

const JSON_TYPE = { "Content-Type": "application/json" } as const;

/** The proxy's own JSON answer: `{"error": "<error>"}` (more fields after it when given, already written). */
function proxyError(
  status: number,
  error: string,
  more = "",
  headers: SyntheticResponse["headers"] = JSON_TYPE,
): SyntheticResponse {
  return { status, headers, body: `{"error": "${error}"${more}}` };
}

export const REQUEST_TOO_LARGE = proxyError(413, "request body exceeds proxy limit");

export const UPSTREAM_TOO_LARGE = proxyError(502, "upstream body exceeds proxy limit");

/** Answer to a method outside FORWARDED_METHODS (never recorded, never forwarded). */
export const METHOD_NOT_ALLOWED = proxyError(405, "method not supported by proxy", "", {
  ...JSON_TYPE,
  Allow: [...FORWARDED_METHODS].join(", "),
});

/**
 * Answer to a request the proxy cannot read (bad syntax, conflicting framing, a request cut
 * short by a half-close): never recorded, never forwarded, and the connection closes after it.
 */
export const MALFORMED_REQUEST = proxyError(400, "malformed request");

/** Answer to a request head over the proxy's limit (see docs/proxy.md); the connection closes after it. */
export const HEAD_TOO_LARGE = proxyError(431, "request head exceeds proxy limit");

/**
 * The 502 of an upstream transport failure: the class name of the failure (one vocabulary
 * for every path, see `upstreamFailure`), never the error's message.
 */
export function upstreamFailed(error: unknown): SyntheticResponse {
  return proxyError(502, "upstream request failed", `, "detail": "${upstreamFailure(error).name}"`);
}

/**
 * A complete fixed response as bytes, for a connection the proxy writes to itself: the same
 * status line and header set Node's HTTP server writes for `sendSynthetic` (an answer to
 * `HEAD` keeps its length and drops its body).
 */
export function syntheticBytes(synthetic: SyntheticResponse, keepAlive: boolean, head = false): Buffer {
  const body = Buffer.from(synthetic.body, "utf8");
  let text = `HTTP/1.1 ${synthetic.status} ${STATUS_CODES[synthetic.status] ?? "unknown"}\r\n`;
  for (const [name, value] of Object.entries(synthetic.headers)) text += `${name}: ${value}\r\n`;
  text += `content-length: ${body.length}\r\ndate: ${httpDate()}\r\nconnection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`;
  return head ? Buffer.from(text, "latin1") : Buffer.concat([Buffer.from(text, "latin1"), body]);
}

/** Writes a complete fixed response with its own framing. */
export function sendSynthetic(response: ServerResponse, synthetic: SyntheticResponse): void {
  if (response.destroyed || response.headersSent) return;
  const body = Buffer.from(synthetic.body, "utf8");
  response.writeHead(synthetic.status, { ...synthetic.headers, "Content-Length": body.length });
  response.end(body);
}
