import { corruptingRelay } from "../../faults/http-corrupt.js";
import type { FaultCanary, ResponseRelay } from "../../faults/types.js";
import { cutConnection, type Exchange } from "../../proxy/exchange.js";
import type { Cancellations } from "../cancellations.js";
import { paddedAnswer } from "../faults/padded-answer.js";
import { LIST_CHANGED_NOTIFICATION, type SessionTools } from "../faults/session-tools.js";
import type { McpFaultContext } from "../faults/types.js";
import type { LatencyWaits } from "../selection.js";
import { changedRelay, sendMessages } from "./changed-answers.js";
import { delayedRelay, mcpRelay } from "./relay.js";
import { sessionToolsRelay } from "./session-tools-relay.js";

/** What an MCP fault acting on one HTTP exchange reaches beyond it (from the request handler). */
export interface McpExchangeParts {
  /** The JSON-RPC request the exchange carries. */
  readonly request: { readonly rawId: string; readonly idKey: string };
  readonly waits: LatencyWaits;
  readonly cancellations: Cancellations;
  /** Sends the exchange's request upstream; its answer goes to `relay`. */
  send(relay: ResponseRelay): void;
  /** The tools of the exchange's session, as `mcp_tools_changed` leaves them from now on. */
  changedTools(): SessionTools;
}

/**
 * The MCP fault context over Streamable HTTP: a synthetic answer is a status-200 JSON response
 * with `X-Agent-Chaos-Fault`; a withheld request keeps its connection open and unanswered; a
 * disconnect destroys the connection; an answer the fault changes is forwarded through the relay
 * that changes it (changed-answers.ts).
 */
export function httpMcpContext(
  exchange: Exchange,
  faultType: string,
  canary: FaultCanary | null,
  parts: McpExchangeParts,
): McpFaultContext {
  const { operation } = exchange;
  const { request, waits, cancellations } = parts;
  const answerRelay = () => mcpRelay(exchange, request.idKey, cancellations);
  return {
    requestId: request.rawId,
    canary,
    answer(message, failureKind, details) {
      operation.fail(failureKind, null, details);
      sendMessages(exchange, [message], faultType);
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
      parts.send(delayedRelay(answerRelay(), ms, exchange.response, () => waits.remove(operation)));
    },
    padAnswer(sizeBytes) {
      const change = {
        before: [],
        answer: (text: string) => paddedAnswer(text, sizeBytes),
        failure: "injected_oversized" as const,
      };
      parts.send(changedRelay(exchange, request.idKey, change, cancellations));
    },
    changeTools(remove, require) {
      const { method, path } = operation.identity;
      const tools = parts.changedTools();
      tools.apply({ remove, require, tool: method === "tools/call" ? path : null });
      const relay = sessionToolsRelay(exchange, request, tools, cancellations, [LIST_CHANGED_NOTIFICATION]);
      if (relay !== null) parts.send(relay);
    },
    corruptAnswer(tokens, corruptionCanary) {
      const note = (then: () => void) => operation.beforeTerminal(then);
      parts.send(corruptingRelay(answerRelay(), tokens, corruptionCanary, note));
    },
  };
}
