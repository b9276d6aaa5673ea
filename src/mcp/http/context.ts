import type { FaultCanary } from "../../faults/types.js";
import { cutConnection, type Exchange } from "../../proxy/exchange.js";
import { sendSynthetic } from "../../proxy/responses.js";
import type { ToolsChange } from "../faults/session-tools.js";
import type { McpFaultContext } from "../faults/types.js";
import type { LatencyWaits } from "../selection.js";

/**
 * The MCP fault context over Streamable HTTP: a synthetic answer is a status-200 JSON response
 * with `X-Agent-Chaos-Fault`; a withheld request keeps its connection open and unanswered; a
 * disconnect destroys the connection.
 */
export function httpMcpContext(
  exchange: Exchange,
  faultType: string,
  requestId: string,
  waits: LatencyWaits,
  forwardDelayed: (ms: number, released: () => void) => void,
  /** `mcp_oversized` and `mcp_tools_changed` forward through the handler (changed-answers.ts). */
  forwardChanged: { padded(sizeBytes: number): void; toolsChanged(change: ToolsChange): void },
  forwardCorrupted: (tokens: readonly string[], canary: FaultCanary) => void,
  canary: FaultCanary | null,
): McpFaultContext {
  const { operation } = exchange;
  return {
    requestId,
    canary,
    corruptAnswer: forwardCorrupted,
    answer(message, failureKind, details) {
      operation.fail(failureKind, null, details);
      sendSynthetic(exchange.response, {
        status: 200,
        headers: { "Content-Type": "application/json", "X-Agent-Chaos-Fault": faultType },
        body: message,
      });
    },
    withhold(failureKind) {
      operation.fail(failureKind, null);
    },
    disconnect(failureKind) {
      operation.fail(failureKind, null);
      cutConnection(exchange);
    },
    delayAnswer(ms) {
      waits.add(operation, () => {
        operation.fail("client_timeout_inferred", null);
        cutConnection(exchange);
      });
      forwardDelayed(ms, () => waits.remove(operation));
    },
    padAnswer(sizeBytes) {
      forwardChanged.padded(sizeBytes);
    },
    changeTools(remove, require) {
      const { method, path } = operation.identity;
      forwardChanged.toolsChanged({ remove, require, tool: method === "tools/call" ? path : null });
    },
  };
}
