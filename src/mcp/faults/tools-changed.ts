import { mcpSessionFaultParameters } from "../../scenario/mcp-session-fault-parameters.js";
import type { McpFaultExecutor } from "./types.js";

/**
 * `mcp_tools_changed`: the request goes to the server; `notifications/tools/list_changed` reaches
 * the agent before its answer, and the session's tools change from then on. No failure of its own.
 */
export const mcpToolsChanged: McpFaultExecutor<"mcp_tools_changed"> = {
  parameters: mcpSessionFaultParameters,
  execute(fault, context) {
    context.changeTools(fault.remove, fault.require);
  },
};
