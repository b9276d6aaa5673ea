import type { McpMalformedFault, McpOversizedFault, McpToolsChangedFault } from "./types.js";

/**
 * The keys `mcp_malformed`, `mcp_oversized` and `mcp_tools_changed` record, both in
 * `FAULT_INJECTED.parameters` (events schema 3) and in the report's fault definition
 * (docs/mcp.md): `shape`; `size_bytes` with its default; `remove` as one comma-separated string
 * (when it names a tool) and `require` (when set).
 */
export function mcpSessionFaultParameters(
  fault:
    | Pick<McpMalformedFault, "type" | "shape">
    | Pick<McpOversizedFault, "type" | "sizeBytes">
    | Pick<McpToolsChangedFault, "type" | "remove" | "require">,
): Record<string, number | string> {
  switch (fault.type) {
    case "mcp_malformed":
      return { shape: fault.shape };
    case "mcp_oversized":
      return { size_bytes: fault.sizeBytes };
    case "mcp_tools_changed": {
      const parameters: Record<string, string> = {};
      if (fault.remove.length > 0) parameters.remove = fault.remove.join(",");
      if (fault.require !== null) parameters.require = fault.require;
      return parameters;
    }
  }
}
