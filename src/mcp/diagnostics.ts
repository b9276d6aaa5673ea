/** Counts of an MCP dependency for the run's diagnostics (stdio host and HTTP proxy alike). */
export interface McpDiagnostics {
  /** Lines (stdio, either direction) or POST bodies (HTTP) that were not JSON-RPC, relayed unchanged. */
  readonly malformedMessages: number;
}
