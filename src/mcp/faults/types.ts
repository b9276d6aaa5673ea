import type { FailureDetails } from "../../events/operation.js";
import type { FailureKind } from "../../events/types.js";
import type { FaultCanary, FaultOf } from "../../faults/types.js";
import type { McpFaultType } from "../../scenario/types.js";

/**
 * What an MCP fault executor may do with the one selected JSON-RPC request. The stdio host and
 * the Streamable HTTP proxy each implement it; every method records the operation's terminal
 * evidence itself (except `delayAnswer`, whose answer does).
 */
export interface McpFaultContext {
  /** The request's id exactly as received (JSON text: a number or a quoted string). */
  readonly requestId: string;
  /**
   * Records the failure, then answers the agent with `message` (one JSON-RPC response, without
   * a line end) in place of the server; the server never sees the request.
   */
  answer(message: string, failureKind: FailureKind, details?: FailureDetails): void;
  /** Records the failure; the request is neither forwarded nor ever answered. */
  withhold(failureKind: FailureKind): void;
  /** Records the failure, then ends the agent's transport (stdio: the session; HTTP: the connection). */
  disconnect(failureKind: FailureKind): void;
  /**
   * Forwards the request now and hands the server's answer to the agent `ms` after it arrives.
   * Meanwhile the operation may be abandoned as with `http_latency` (its failure recorded once).
   */
  delayAnswer(ms: number): void;
  /**
   * Forwards the request now; the server's result reaches the agent padded to `sizeBytes`
   * (`paddedAnswer`), and the operation fails `injected_oversized` as it is handed over. An
   * error answer passes unchanged and is recorded as usual.
   */
  padAnswer(sizeBytes: number): void;
  /**
   * Forwards the request now, sends the agent `notifications/tools/list_changed` before its
   * answer, and changes the session's tools from then on (`SessionTools`); the answer is
   * recorded as usual.
   */
  changeTools(remove: readonly string[], require: string | null): void;
  /**
   * `mcp_corrupt_result`: forwards the request; the server's answer reaches the agent with the
   * value at `tokens` (relative to the JSON-RPC message) replaced by `canary`'s value, whose
   * evidence is recorded before the operation's terminal event.
   */
  corruptAnswer(tokens: readonly string[], canary: FaultCanary): void;
  /** Corruption faults only: this fault's canary (null for every other fault, or without canaries). */
  readonly canary: FaultCanary | null;
}

/** One MCP fault type's behaviour; one file per fault, mapped by `registry.ts`. */
export interface McpFaultExecutor<K extends McpFaultType> {
  /** `FAULT_INJECTED.parameters` (integers; strings only in events schema 3). */
  parameters(fault: FaultOf<K>): Record<string, number | string>;
  execute(fault: FaultOf<K>, context: McpFaultContext): void;
}

/** The fixed text of every synthetic MCP answer. */
export const INJECTED_TEXT = "Injected by Agent Chaos";
