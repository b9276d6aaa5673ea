import type { Operation } from "../events/operation.js";
import type { ResponseHeaders } from "../faults/types.js";
import { settleUpstream } from "./settle.js";

/**
 * How a relayed response completes an operation: the one table of terminal events, by the way
 * an exchange ends (docs/evidence.md, "How an exchange ends"). Every relay of every path (the
 * fast lane, the full pipeline's buffered and streaming relays, MCP over HTTP) records through
 * a rule; the transports differ only in how the bytes move. `HTTP_COMPLETION` is the HTTP
 * proxy's; an MCP dependency's relays complete by the JSON-RPC response instead.
 */
export interface CompletionRule {
  /** The workload left before any byte of its answer: it got none, whatever the upstream said. */
  clientLeft(operation: Operation): void;
  /** The proxy's own 502 replaces the upstream's answer (too large, or it failed before it was whole). */
  replaced(operation: Operation): void;
  /** An event stream broke after its head was relayed (`relayedEvents`: null when not an event stream). */
  streamBroke(operation: Operation, status: number, relayedEvents: number | null): void;
  /** The workload closed a stream being relayed; `acting`: a fault acts on it. */
  streamLeft(
    operation: Operation,
    status: number,
    headers: ResponseHeaders,
    relayedEvents: number | null,
    acting: boolean,
  ): void;
  /**
   * The upstream's answer ended whole, about to reach the workload (evidence first): `body` is
   * the buffered body, null for a relayed stream.
   */
  ended(
    operation: Operation,
    status: number,
    headers: ResponseHeaders,
    body: Buffer | null,
    relayedEvents: number | null,
  ): void;
  /** The whole answer is withheld: the workload gets `202 Accepted` with no body instead. */
  withheld(operation: Operation): boolean;
}

/** The HTTP proxy's terminal events (schema 1 keeps its own kinds: `settleUpstream` and `Operation` pick them). */
export const HTTP_COMPLETION: CompletionRule = {
  clientLeft(operation) {
    operation.fail("client_disconnected", null);
  },
  replaced(operation) {
    operation.fail("proxy_error", 502);
  },
  streamBroke(operation, status, relayedEvents) {
    operation.fail("upstream_stream_interrupted", status, { relayedEvents });
  },
  streamLeft(operation, status, headers, relayedEvents, acting) {
    // A listener that stops listening has what it wanted (schema 2), unless a fault acted on it.
    if (acting || relayedEvents === null) operation.fail("client_disconnected", status, { relayedEvents });
    else settleUpstream(operation, status, headers, { relayedEvents, closedByClient: true });
  },
  ended(operation, status, headers, _body, relayedEvents) {
    settleUpstream(operation, status, headers, { relayedEvents });
  },
  withheld: () => false,
};
