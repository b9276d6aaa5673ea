import type { ResponseRelay } from "../../faults/types.js";
import type { Exchange } from "../../proxy/exchange.js";
import type { Cancellations } from "../cancellations.js";
import { REMOVED_TOOL_CODE, removedToolAnswer, type SessionTools } from "../faults/session-tools.js";
import { recordOutcome } from "../outcome.js";
import { changedRelay, sendMessages } from "./changed-answers.js";
import { mcpRelay } from "./relay.js";

/** The JSON-RPC request an exchange carries: its id as received and its id key. */
interface RequestIds {
  readonly rawId: string;
  readonly idKey: string;
}

/**
 * The relay for a request about to be forwarded in a session whose tools `mcp_tools_changed`
 * changed (docs/mcp.md): a call to a removed tool is answered -32602 here (recorded as the
 * server's `rpc_error`) and null is returned; a `tools/list` answer is rewritten; `before` (the
 * `notifications/tools/list_changed` of the injection itself) goes out ahead of the answer.
 */
export function sessionToolsRelay(
  exchange: Exchange,
  request: RequestIds,
  tools: SessionTools | undefined,
  cancellations: Cancellations,
  before: readonly string[] = [],
): ResponseRelay | null {
  const { method, path } = exchange.operation.identity;
  if (tools?.removes(method, path) === true) {
    recordOutcome(exchange.operation, { kind: "rpc_error", code: REMOVED_TOOL_CODE });
    sendMessages(exchange, [...before, removedToolAnswer(request.rawId, path)], "mcp_tools_changed");
    return null;
  }
  const rewrites = tools?.rewrites(method) === true;
  if (!rewrites && before.length === 0) return mcpRelay(exchange, request.idKey, cancellations);
  return changedRelay(
    exchange,
    request.idKey,
    {
      before,
      answer: (text) => (rewrites ? (tools as SessionTools).rewriteList(text) : null),
      failure: null,
    },
    cancellations,
  );
}
