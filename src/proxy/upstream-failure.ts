import { AgentChaosError } from "../support/errors.js";

/** Each failure's code, with the name the workload's 502 gives as its `detail` and its message. */
const FAILURES = {
  /** No connection to the upstream could be made (refused, unknown host, unreachable). */
  UPSTREAM_UNREACHABLE: ["UpstreamUnreachableError", "the upstream could not be reached"],
  /** The upstream closed or reset the connection before its response was complete. */
  UPSTREAM_CLOSED: [
    "UpstreamClosedError",
    "the upstream closed the connection before the response was complete",
  ],
  /** The upstream's answer is not a well-formed HTTP/1.x response. */
  UPSTREAM_INVALID_RESPONSE: [
    "UpstreamInvalidResponseError",
    "the upstream's response is not valid HTTP/1.1",
  ],
  UPSTREAM_TIMEOUT: ["UpstreamTimeoutError", "the upstream did not answer in time"],
  UPSTREAM_TLS: ["UpstreamTlsError", "the TLS connection to the upstream failed"],
  /** Any other failure of a forward. */
  UPSTREAM_FAILED: ["UpstreamError", "the upstream request failed"],
} as const;

export type UpstreamFailureCode = keyof typeof FAILURES;

/**
 * Why a forward failed, in one vocabulary for every path: the fast lane's own upstream
 * connection and undici's pool fail in their own words, and the workload's 502 names the
 * class of the failure (`name`), so the same failure reads the same whichever path served it.
 */
export class UpstreamFailure extends AgentChaosError {
  declare readonly code: UpstreamFailureCode;

  constructor(code: UpstreamFailureCode, options?: { cause?: unknown }) {
    const [name, message] = FAILURES[code];
    super(code, message, options);
    this.name = name;
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
  return new UpstreamFailure(failureCode(code, (error as Error)?.name), { cause: error });
}

function failureCode(code: string, name: unknown): UpstreamFailureCode {
  if (UNREACHABLE.has(code)) return "UPSTREAM_UNREACHABLE";
  if (CLOSED.has(code)) return "UPSTREAM_CLOSED";
  if (INVALID.has(code) || code.startsWith("HPE_") || name === "HTTPParserError")
    return "UPSTREAM_INVALID_RESPONSE";
  if (TIMEOUT.has(code)) return "UPSTREAM_TIMEOUT";
  if (TLS.test(code)) return "UPSTREAM_TLS";
  return "UPSTREAM_FAILED";
}
