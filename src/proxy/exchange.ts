import type { IncomingMessage, ServerResponse } from "node:http";
import type { Operation } from "../events/operation.js";
import type { ResponseRelay } from "../faults/types.js";
import { upstreamRequestHeaders } from "../support/http-headers.js";
import type { UpstreamPort } from "./forward.js";
import { splitTarget } from "./request-target.js";

/** One operation together with the workload's side of its HTTP exchange. */
export interface Exchange {
  readonly operation: Operation;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** The raw request target to forward: path plus `?query` when there is one. */
  readonly target: string;
  /** The body as read (null when empty). */
  readonly body: Buffer | null;
}

/** The exchange of `operation` for a request Node's server read, its target as the request names it. */
export function exchangeOf(
  operation: Operation,
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer | null,
): Exchange {
  return { operation, request, response, target: splitTarget(request.url ?? "/").forward, body };
}

/** Sends the exchange's request upstream as received (minus hop-by-hop headers); the answer goes to `relay`. */
export function sendUpstream(upstream: UpstreamPort, exchange: Exchange, relay: ResponseRelay): void {
  upstream.send(
    {
      method: exchange.request.method as string,
      target: exchange.target,
      headers: upstreamRequestHeaders(exchange.request.rawHeaders),
      body: exchange.body,
    },
    relay,
  );
}

/** Ends the workload's connection abruptly (no further byte of a response). */
export function cutConnection(exchange: Exchange): void {
  exchange.response.destroy();
  exchange.request.socket.destroy();
}

/** Something went wrong inside the proxy itself: record it (unless already recorded) and cut the connection. Never throws. */
export function failInternally(exchange: Exchange): void {
  try {
    exchange.operation.fail("proxy_error", null);
  } catch {
    // The sink itself failed: nothing more can be recorded; the connection is cut below.
  }
  cutConnection(exchange);
}
