import type { McpFaultExecutor } from "./types.js";

/** `mcp_disconnect`: the agent's transport ends (stdio: the server stops and the shim exits). */
export const mcpDisconnect: McpFaultExecutor<"mcp_disconnect"> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.disconnect("injected_disconnect");
  },
};
