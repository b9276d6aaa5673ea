import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { type RequestBody, readBody } from "./body.js";
import { takeTurn } from "./connection-turns.js";
import { FORWARDED_METHODS, MALFORMED_REQUEST, METHOD_NOT_ALLOWED, sendSynthetic } from "./responses.js";

/** What a path does with a request that was accepted and whose body was read. */
export type AcceptedRequest = (
  request: IncomingMessage,
  response: ServerResponse,
  body: RequestBody,
  receivedAt: number,
) => void;

/**
 * How every path served by Node's HTTP server (the HTTP proxy's full pipeline, MCP over HTTP)
 * takes a request, as the fast lane takes it (docs/proxy.md): in its connection's turn; an
 * HTTP/1.1 request without `Host` refused 400 (the connection closes), a method the proxy does
 * not forward 405; then its body is read (bounded) and `accepted` runs, unless the proxy closed
 * meanwhile (`ledger` sealed: the connection is destroyed). No exception leaves it.
 */
export function acceptRequests(
  ledger: { readonly sealed: boolean },
  accepted: AcceptedRequest,
): (request: IncomingMessage, response: ServerResponse) => void {
  const start = (request: IncomingMessage, response: ServerResponse): void => {
    const receivedAt = performance.now();
    try {
      if (request.httpVersion === "1.1" && request.headers.host === undefined) {
        response.shouldKeepAlive = false;
        sendSynthetic(response, MALFORMED_REQUEST);
        return;
      }
      if (!FORWARDED_METHODS.has(request.method ?? "")) {
        sendSynthetic(response, METHOD_NOT_ALLOWED);
        return;
      }
      readBody(request, (body) => {
        try {
          if (ledger.sealed) response.destroy();
          else accepted(request, response, body, receivedAt);
        } catch {
          response.destroy();
        }
      });
    } catch {
      response.destroy();
    }
  };
  return (request, response) => takeTurn(request, response, () => start(request, response));
}
