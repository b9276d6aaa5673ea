import type { Operation } from "../../events/operation.js";
import type { ResponseHeaders } from "../../faults/types.js";
import type { CompletionRule } from "../../proxy/completion-rule.js";
import { settleUpstream } from "../../proxy/settle.js";
import type { Cancellations } from "../cancellations.js";
import { findResponse } from "../json-rpc.js";
import { recordOutcome } from "../outcome.js";

/**
 * How the HTTP exchange of one JSON-RPC request completes its MCP operation (docs/mcp.md): by
 * the JSON-RPC response with the request's id; an HTTP status of 400 or more fails it as the
 * HTTP proxy does; an exchange that ends without that response, or that the agent leaves
 * first, fails it `connection_closed` (with the events relayed, for an event stream); the
 * proxy's own 502 is a `proxy_error`. The answer to a request the agent cancelled is withheld.
 */
export class McpCompletion implements CompletionRule {
  readonly #idKey: string;
  readonly #cancellations: Cancellations;

  constructor(idKey: string, cancellations: Cancellations) {
    this.#idKey = idKey;
    this.#cancellations = cancellations;
  }

  clientLeft(operation: Operation): void {
    operation.fail("connection_closed", null);
  }

  replaced(operation: Operation): void {
    operation.fail("proxy_error", 502);
  }

  streamBroke(operation: Operation, _status: number, relayedEvents: number | null): void {
    operation.fail("connection_closed", null, { relayedEvents });
  }

  streamLeft(
    operation: Operation,
    _status: number,
    _headers: ResponseHeaders,
    relayedEvents: number | null,
  ): void {
    operation.fail("connection_closed", null, { relayedEvents });
  }

  ended(
    operation: Operation,
    status: number,
    headers: ResponseHeaders,
    body: Buffer | null,
    relayedEvents: number | null,
  ): void {
    if (status >= 400) {
      settleUpstream(operation, status, headers, { relayedEvents });
      return;
    }
    const outcome = body === null ? null : findResponse(body.toString("utf8"), this.#idKey);
    if (outcome === null) operation.fail("connection_closed", null, { relayedEvents });
    else recordOutcome(operation, outcome, { relayedEvents });
  }

  withheld(operation: Operation): boolean {
    return this.#cancellations.cancelled(operation);
  }

  /** The answer carried by one event of a stream, recorded as it goes by; true when it is this request's. */
  answeredBy(operation: Operation, data: string, relayedEvents: number): boolean {
    const outcome = findResponse(data, this.#idKey);
    if (outcome === null) return false;
    recordOutcome(operation, outcome, { relayedEvents });
    return true;
  }
}
