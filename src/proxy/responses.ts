import type { ServerResponse } from "node:http";
import type { SyntheticResponse } from "../faults/types.js";

/** The methods the proxy forwards (proxy.md). */
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

export const REQUEST_TOO_LARGE: SyntheticResponse = {
  status: 413,
  headers: JSON_TYPE,
  body: '{"error": "request body exceeds proxy limit"}',
};

export const UPSTREAM_TOO_LARGE: SyntheticResponse = {
  status: 502,
  headers: JSON_TYPE,
  body: '{"error": "upstream body exceeds proxy limit"}',
};

/** Answer to a method outside FORWARDED_METHODS (never recorded, never forwarded). */
export const METHOD_NOT_ALLOWED: SyntheticResponse = {
  status: 405,
  headers: { ...JSON_TYPE, Allow: [...FORWARDED_METHODS].join(", ") },
  body: '{"error": "method not supported by proxy"}',
};

/** The 502 of an upstream transport failure: the error's class name only, never its message. */
export function upstreamFailed(error: unknown): SyntheticResponse {
  return {
    status: 502,
    headers: JSON_TYPE,
    body: `{"error": "upstream request failed", "detail": "${errorClassName(error)}"}`,
  };
}

function errorClassName(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : "";
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : "Error";
}

/** Writes a complete fixed response with its own framing. */
export function sendSynthetic(response: ServerResponse, synthetic: SyntheticResponse): void {
  if (response.destroyed || response.headersSent) return;
  const body = Buffer.from(synthetic.body, "utf8");
  response.writeHead(synthetic.status, { ...synthetic.headers, "Content-Length": body.length });
  response.end(body);
}
