import { INJECTED_TEXT, type McpFaultExecutor } from "./types.js";

/** `mcp_error`: a JSON-RPC error response with `code`; the server never sees the request. */
export const mcpError: McpFaultExecutor<"mcp_error"> = {
  parameters: (fault) => ({ code: fault.code }),
  execute(fault, context) {
    context.answer(
      `{"jsonrpc":"2.0","id":${context.requestId},"error":{"code":${fault.code},"message":"${INJECTED_TEXT}"}}`,
      "injected_rpc_error",
      { rpcErrorCode: fault.code },
    );
  },
};
