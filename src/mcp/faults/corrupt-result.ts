import { pointerTokens } from "../../faults/corruption/json-pointer.js";
import type { McpFaultExecutor } from "./types.js";

/**
 * `mcp_corrupt_result` (docs/mcp.md, docs/faults.md): the server answers as usual, and the agent
 * gets the answer with the value at `pointer` inside the JSON-RPC `result` replaced by the
 * fault's canary. Without canaries (a proxy started on its own) the answer passes untouched.
 */
export const mcpCorruptResult: McpFaultExecutor<"mcp_corrupt_result"> = {
  parameters: () => ({}),
  execute(fault, context) {
    const canary = context.canary;
    if (canary === null) {
      context.delayAnswer(0);
      return;
    }
    context.corruptAnswer(["result", ...pointerTokens(fault.pointer)], canary);
  },
};
