import { AgentChaosError } from "../support/errors.js";

export type ProxyErrorCode = "PROXY_START_FAILED";

/** A failure of the proxy itself (not of a proxied request, which never throws). */
export class ProxyError extends AgentChaosError {
  declare readonly code: ProxyErrorCode;

  constructor(code: ProxyErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
