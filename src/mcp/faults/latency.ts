import type { McpFaultExecutor } from "./types.js";

/** `mcp_latency`: the request goes to the server at once; its answer reaches the agent `latency_ms` later. */
export const mcpLatency: McpFaultExecutor<"mcp_latency"> = {
  parameters: (fault) => ({ latency_ms: fault.latencyMs }),
  execute(fault, context) {
    context.delayAnswer(fault.latencyMs);
  },
};
