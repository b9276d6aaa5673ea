import type { Operation, SuccessDetails } from "../events/operation.js";
import type { ResponseOutcome } from "./json-rpc.js";

/**
 * Records the terminal evidence of a JSON-RPC response (docs/mcp.md): a result succeeds (status
 * null), `isError: true` is a `tool_error`, an error an `rpc_error` with its code. Returns false,
 * recording nothing, when the operation already has its terminal event.
 */
export function recordOutcome(
  operation: Operation,
  outcome: ResponseOutcome,
  details: SuccessDetails = {},
): boolean {
  const relayed = { relayedEvents: details.relayedEvents ?? null };
  switch (outcome.kind) {
    case "result":
      return operation.succeed(null, details);
    case "tool_error":
      return operation.fail("tool_error", null, relayed);
    case "rpc_error":
      return operation.fail("rpc_error", null, { ...relayed, rpcErrorCode: outcome.code });
  }
}
