/**
 * What an MCP fault acting on one `mcp_stdio` request is given (docs/mcp.md): each way it can
 * end the request becomes the run's decision for the shim, recorded on the operation first.
 */
import type { Operation } from "../../events/operation.js";
import type { FaultCanary } from "../../faults/types.js";
import type { McpFaultContext } from "../faults/types.js";
import type { LatencyWaits } from "../selection.js";
import type { Decision } from "./channel.js";

/** A request the run is waiting on the answer of. */
export interface OpenRequest {
  readonly operation: Operation;
  /** Set by `mcp_latency`: how long the answer is held after it arrives. */
  delayMs: number | null;
  timer: NodeJS.Timeout | undefined;
  /** Set by `mcp_oversized`: a result answer is handed over padded, as an injected failure. */
  padded?: boolean;
  /** Set by `mcp_corrupt_result`: records what the shim did to the answer. */
  canary?: FaultCanary;
  /** The request's id (JSON text). */
  id?: string;
}

export interface DecisionSink {
  /** Tells the shim; the request stays open (its answer is still to come). */
  decide(decision: Decision): void;
  /** Tells the shim; the request is over. */
  finish(decision: Decision): void;
  /** The request is left unanswered (the agent may still cancel it). */
  withheld(operation: Operation): void;
}

export function stdioFaultContext(
  request: OpenRequest,
  requestId: string,
  canary: FaultCanary | null,
  waits: LatencyWaits,
  sink: DecisionSink,
): McpFaultContext {
  const { operation } = request;
  return {
    requestId,
    canary,
    corruptAnswer: (tokens, acting) => {
      request.canary = acting;
      operation.beforeTerminal(() => acting.notReplaced("pointer_not_found"));
      const { text, integer } = acting.values;
      sink.decide({ action: "forward", delayed: false, corrupt: { tokens: [...tokens], text, integer } });
    },
    answer: (message, failureKind, details) => {
      operation.fail(failureKind, null, details);
      sink.finish({ action: "answer", message });
    },
    withhold: (failureKind) => {
      operation.fail(failureKind, null);
      sink.withheld(operation);
      sink.finish({ action: "withhold" });
    },
    disconnect: (failureKind) => {
      operation.fail(failureKind, null);
      sink.finish({ action: "disconnect" });
    },
    delayAnswer: (ms) => {
      request.delayMs = ms;
      waits.add(operation, () => operation.fail("client_timeout_inferred", null));
      sink.decide({ action: "forward", delayed: true });
    },
    padAnswer: (sizeBytes) => {
      request.padded = true;
      sink.decide({ action: "forward", delayed: false, padTo: sizeBytes });
    },
    changeTools: (remove, require) => {
      const { method, path } = operation.identity;
      const toolsChange = { remove, require, tool: method === "tools/call" ? path : null };
      sink.decide({ action: "forward", delayed: false, toolsChange });
    },
  };
}
