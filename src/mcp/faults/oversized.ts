import { mcpSessionFaultParameters } from "../../scenario/mcp-session-fault-parameters.js";
import type { McpFaultExecutor } from "./types.js";

/** `mcp_oversized`: the request goes to the server; its result reaches the agent padded to `size_bytes`. */
export const mcpOversized: McpFaultExecutor<"mcp_oversized"> = {
  parameters: mcpSessionFaultParameters,
  execute(fault, context) {
    context.padAnswer(fault.sizeBytes);
  },
};
