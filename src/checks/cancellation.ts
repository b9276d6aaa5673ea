import type { CheckDefinition } from "./types.js";

/**
 * `cancellation`: an MCP request the agent abandoned (never answered: `mcp_no_response`, or an
 * `mcp_latency` it stopped waiting for) must be cancelled with `notifications/cancelled`
 * naming its id (docs/checks.md).
 */
export const cancellationCheck: CheckDefinition<"cancellation"> = {
  reason: "CANCELLATION_NOT_SENT",
  describe: (finding, _config, label) =>
    `operation ${label(finding.operation_id)} was abandoned without notifications/cancelled`,
  abandoned: (request) => (request.cancelled ? null : { operation_id: request.operationId }),
};
