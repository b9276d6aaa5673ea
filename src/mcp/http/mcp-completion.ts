import type { Operation } from "../../events/operation.js";
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
export interface McpCompletion extends CompletionRule {
  /** The answer carried by one event of a stream, recorded as it goes by; true when it is this request's. */
  answeredBy(operation: Operation, data: string, relayedEvents: number): boolean;
}

export function mcpCompletion(idKey: string, cancellations: Cancellations): McpCompletion {
  const closed = (operation: Operation, relayedEvents: number | null) =>
    operation.fail("connection_closed", null, { relayedEvents });
  return {
    clientLeft: (operation) => operation.fail("connection_closed", null),
    replaced: (operation) => operation.fail("proxy_error", 502),
    streamBroke: (operation, _status, relayedEvents) => closed(operation, relayedEvents),
    streamLeft: (operation, _status, _headers, relayedEvents) => closed(operation, relayedEvents),
    ended(operation, status, headers, body, relayedEvents) {
      if (status >= 400) {
        settleUpstream(operation, status, headers, { relayedEvents });
        return;
      }
      const outcome = body === null ? null : findResponse(body.toString("utf8"), idKey);
      if (outcome === null) closed(operation, relayedEvents);
      else recordOutcome(operation, outcome, { relayedEvents });
    },
    withheld: (operation) => cancellations.cancelled(operation),
    answeredBy(operation, data, relayedEvents) {
      const outcome = findResponse(data, idKey);
      if (outcome !== null) recordOutcome(operation, outcome, { relayedEvents });
      return outcome !== null;
    },
  };
}
