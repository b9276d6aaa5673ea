import { AgentChaosError } from "../support/errors.js";

export type UpstreamFailureCode =
  | "UPSTREAM_UNREACHABLE"
  | "UPSTREAM_CLOSED"
  | "UPSTREAM_INVALID_RESPONSE"
  | "UPSTREAM_TIMEOUT"
  | "UPSTREAM_TLS"
  | "UPSTREAM_FAILED";

/**
 * Why a forward failed, in one vocabulary for every path: the fast lane's own upstream
 * connection and undici's pool fail in their own words, and the workload's 502 names the
 * class of the failure (`detail`), so the same failure reads the same whichever path served it.
 */
export class UpstreamFailure extends AgentChaosError {
  declare readonly code: UpstreamFailureCode;

  constructor(code: UpstreamFailureCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** No connection to the upstream could be made (refused, unknown host, unreachable). */
export class UpstreamUnreachableError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_UNREACHABLE", "the upstream could not be reached", options);
  }
}

/** The upstream closed or reset the connection before its response was complete. */
export class UpstreamClosedError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_CLOSED", "the upstream closed the connection before the response was complete", options);
  }
}

/** The upstream's answer is not a well-formed HTTP/1.x response. */
export class UpstreamInvalidResponseError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_INVALID_RESPONSE", "the upstream's response is not valid HTTP/1.1", options);
  }
}

export class UpstreamTimeoutError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_TIMEOUT", "the upstream did not answer in time", options);
  }
}

export class UpstreamTlsError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_TLS", "the TLS connection to the upstream failed", options);
  }
}

/** Any other failure of a forward. */
export class UpstreamError extends UpstreamFailure {
  constructor(options?: { cause?: unknown }) {
    super("UPSTREAM_FAILED", "the upstream request failed", options);
  }
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const CLOSED = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "ECONNABORTED"]);
const INVALID = new Set([
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
  // Node's HTTP server refusing an upstream header the workload's response would carry.
  "ERR_INVALID_CHAR",
  "ERR_INVALID_HTTP_TOKEN",
  "ERR_HTTP_INVALID_HEADER_VALUE",
  "ERR_HTTP_INVALID_STATUS_CODE",
]);
const TIMEOUT = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const TLS =
  /^(?:ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** The failure behind `error`, whichever HTTP client raised it (the original kept as `cause`). */
export function upstreamFailure(error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const code =
    typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "";
  const options = { cause: error };
  if (UNREACHABLE.has(code)) return new UpstreamUnreachableError(options);
  if (CLOSED.has(code)) return new UpstreamClosedError(options);
  if (INVALID.has(code) || code.startsWith("HPE_") || (error as Error)?.name === "HTTPParserError")
    return new UpstreamInvalidResponseError(options);
  if (TIMEOUT.has(code)) return new UpstreamTimeoutError(options);
  if (TLS.test(code)) return new UpstreamTlsError(options);
  return new UpstreamError(options);
}
