import type { McpFaultExecutor } from "./types.js";

/** `mcp_no_response`: nothing, ever; the request is neither forwarded nor answered. */
export const mcpNoResponse: McpFaultExecutor<"mcp_no_response"> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.withhold("injected_no_response");
  },
};
