import { mcpSessionFaultParameters } from "../../scenario/mcp-session-fault-parameters.js";
import type { McpMalformedShape } from "../../scenario/types.js";
import { INJECTED_TEXT, type McpFaultExecutor } from "./types.js";

/** The id of a `wrong_id` answer: a string no request of the agent carried. */
export const WRONG_ID = '"agentchaos-unknown-id"';

/** The message that replaces the server's answer for each shape (docs/mcp.md). */
export function malformedMessage(shape: McpMalformedShape, rawId: string): string {
  switch (shape) {
    case "not_json":
      // A JSON object cut off in the middle of its result.
      return `{"jsonrpc":"2.0","id":${rawId},"result":{"content":[{"type":"text","text":"${INJECTED_TEXT}`;
    case "wrong_id":
      return `{"jsonrpc":"2.0","id":${WRONG_ID},"result":{"content":[{"type":"text","text":"${INJECTED_TEXT}"}]}}`;
    case "missing_result":
      return `{"jsonrpc":"2.0","id":${rawId}}`;
  }
}

/**
 * `mcp_malformed`: one message that is not a valid answer in place of the server's (which never
 * sees the request); after a `wrong_id` answer nothing more comes for the request.
 */
export const mcpMalformed: McpFaultExecutor<"mcp_malformed"> = {
  parameters: mcpSessionFaultParameters,
  execute(fault, context) {
    context.answer(malformedMessage(fault.shape, context.requestId), "injected_malformed");
  },
};
