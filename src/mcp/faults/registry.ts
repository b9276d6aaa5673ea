import type { SelectableFault } from "../../faults/selection.js";
import { compileTarget } from "../../scenario/target.js";
import type { Fault, McpFaultType } from "../../scenario/types.js";
import { clockStartedNow, createTriggerState, type TriggerClock } from "../../triggers/index.js";
import { mcpCorruptResult } from "./corrupt-result.js";
import { mcpDisconnect } from "./disconnect.js";
import { mcpError } from "./error.js";
import { mcpLatency } from "./latency.js";
import { mcpMalformed } from "./malformed.js";
import { mcpNoResponse } from "./no-response.js";
import { mcpOversized } from "./oversized.js";
import { mcpToolError } from "./tool-error.js";
import { mcpToolsChanged } from "./tools-changed.js";
import type { McpFaultContext, McpFaultExecutor } from "./types.js";

/** Every MCP fault type's executor; the compiler rejects a missing or mistyped entry. */
export const MCP_FAULT_EXECUTORS = {
  mcp_error: mcpError,
  mcp_tool_error: mcpToolError,
  mcp_latency: mcpLatency,
  mcp_no_response: mcpNoResponse,
  mcp_disconnect: mcpDisconnect,
  mcp_malformed: mcpMalformed,
  mcp_oversized: mcpOversized,
  mcp_tools_changed: mcpToolsChanged,
  mcp_corrupt_result: mcpCorruptResult,
} satisfies { [K in McpFaultType]: McpFaultExecutor<K> };

export type McpFault = Extract<Fault, { type: McpFaultType }>;

export function isMcpFault(fault: Fault): fault is McpFault {
  return fault.type in MCP_FAULT_EXECUTORS;
}

/** One configured MCP fault ready for traffic: its target, its own trigger state, its executor. */
export interface ArmedMcpFault extends SelectableFault {
  execute(context: McpFaultContext): void;
}

/** Binds an MCP fault to a fresh trigger state (its counter starts at 1 with the first match). */
export function armMcpFault(fault: McpFault, clock: TriggerClock = clockStartedNow()): ArmedMcpFault {
  const executor = MCP_FAULT_EXECUTORS[fault.type] as McpFaultExecutor<McpFaultType>;
  const trigger = createTriggerState(fault.trigger, clock);
  return {
    id: fault.id,
    type: fault.type,
    parameters: executor.parameters(fault),
    matches: compileTarget(fault.target),
    decide: () => trigger.decide(),
    countTokens: trigger.countTokens,
    execute: (context) => executor.execute(fault, context),
    ...(fault.type === "mcp_corrupt_result"
      ? { deferredInjection: { pointer: fault.pointer, canaryType: null } }
      : {}),
  };
}
