import { INJECTED_TEXT, type McpFaultExecutor } from "./types.js";

/** `mcp_tool_error`: a tool result with `isError: true`; the server never sees the call. */
export const mcpToolError: McpFaultExecutor<"mcp_tool_error"> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.answer(
      `{"jsonrpc":"2.0","id":${context.requestId},"result":{"content":[{"type":"text","text":"${INJECTED_TEXT}"}],"isError":true}}`,
      "injected_tool_error",
    );
  },
};
