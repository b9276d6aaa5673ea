import type { IncomingMessage, ServerResponse } from "node:http";
import type { Operation, OperationLedger } from "../../events/operation.js";
import type { CanaryBook } from "../../faults/corruption/canary-book.js";
import { canaryOf } from "../../faults/corruption/fault-canary.js";
import type { ResponseRelay } from "../../faults/types.js";
import type { RequestBody } from "../../proxy/body.js";
import { type Exchange, exchangeOf, failInternally, sendUpstream } from "../../proxy/exchange.js";
import { type AcceptedRequest, acceptRequests } from "../../proxy/exchange-entry.js";
import { executeFault } from "../../proxy/fault-context.js";
import type { UpstreamPort } from "../../proxy/forward.js";
import type { HeldOperations } from "../../proxy/holds.js";
import type { Forwarder } from "../../proxy/pipeline.js";
import { defaultRelay } from "../../proxy/relay.js";
import { REQUEST_TOO_LARGE, sendSynthetic } from "../../proxy/responses.js";
import type { Cancellations } from "../cancellations.js";
import { SessionTools } from "../faults/session-tools.js";
import { mcpIdentity, requestFacts } from "../identity.js";
import { cancelledIdKey, classifyMessage, type JsonRpcMessage } from "../json-rpc.js";
import { type ArmedMcpLayerFault, type LatencyWaits, selectFault } from "../selection.js";
import { httpMcpContext } from "./context.js";
import { mcpCompletion } from "./mcp-completion.js";
import { sessionToolsRelay } from "./session-tools-relay.js";

export interface McpHandlerParts {
  /** The dependency's operations (recorded). */
  readonly ledger: OperationLedger;
  /** Exchanges that carry no JSON-RPC request: relayed by the proxy's own relay, never recorded. */
  readonly untracked: OperationLedger;
  readonly holds: HeldOperations;
  readonly waits: LatencyWaits;
  readonly upstream: UpstreamPort;
  readonly faults: readonly ArmedMcpLayerFault[];
  readonly cancellations: Cancellations;
  /** The run's canaries (corruption faults and their sinks); null when it has none. */
  readonly canaries?: CanaryBook | null;
  countMalformed(): void;
}

type Request = Extract<JsonRpcMessage, { kind: "request" }>;

function sessionOf(request: IncomingMessage): string {
  const value = request.headers["mcp-session-id"];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

/**
 * The request handler of a `protocol: mcp` dependency: a POST whose body is one JSON-RPC
 * request is an MCP operation (selection, faults, evidence from the response with its id);
 * every other exchange is relayed untouched and not recorded. No exception leaves it.
 */
export function createMcpRequestHandler(
  parts: McpHandlerParts,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { ledger, untracked, holds, waits, upstream, faults } = parts;
  const canaries = parts.canaries ?? null;
  /** Open operations by session header and id, for `notifications/cancelled`. */
  const byId = new Map<string, Operation>();
  /** Each session's tools as `mcp_tools_changed` left them, by session header. */
  const toolsBySession = new Map<string, SessionTools>();
  /** A newer request with the same fingerprint ends a held (`http_latency`) or delayed (`mcp_latency`) twin. */
  const twins = {
    supersede(fingerprint: string): void {
      holds.supersede(fingerprint);
      waits.supersede(fingerprint);
    },
  };

  const send = (exchange: Exchange, relay: ResponseRelay): void => sendUpstream(upstream, exchange, relay);
  const changedTools = (session: string): SessionTools => {
    const tools = toolsBySession.get(session) ?? new SessionTools();
    toolsBySession.set(session, tools);
    return tools;
  };

  const relayUntracked = (
    request: IncomingMessage,
    response: ServerResponse,
    body: RequestBody,
    at: number,
  ) => {
    const method = request.method as string;
    const operation = untracked.begin(
      { method, path: "", queryHash: null, bodyHash: "", fingerprint: "" },
      at,
    );
    const exchange = exchangeOf(operation, request, response, body.bytes);
    send(exchange, defaultRelay(exchange, false));
  };

  const handleRequest = (
    request: IncomingMessage,
    response: ServerResponse,
    message: Request,
    body: RequestBody,
    at: number,
  ) => {
    const operation = ledger.begin(mcpIdentity(requestFacts(message.method, message.params), null), at);
    const exchange = exchangeOf(operation, request, response, body.bytes);
    const key = `${sessionOf(request)}\0${message.idKey}`;
    byId.set(key, operation);
    const completion = mcpCompletion(message.idKey, parts.cancellations);
    // An agent that leaves before any byte of its answer was sent got none (an event stream
    // being relayed records its own end, with the events it relayed), as the HTTP proxy records it.
    response.once("close", () => {
      if (byId.get(key) === operation) byId.delete(key);
      if (!response.headersSent) completion.clientLeft(operation);
    });
    const session = sessionOf(request);
    const forward: Forwarder = (forwarded, wrap) => {
      if (forwarded.operation.finished) return;
      const relay = sessionToolsRelay(forwarded, message, toolsBySession.get(session), parts.cancellations);
      if (relay !== null) send(forwarded, wrap === undefined ? relay : wrap(relay));
    };
    try {
      const chosen = selectFault(operation, faults, twins);
      canaries?.scanRequest(ledger.dependency, operation.id, exchange.target, exchange.body);
      if (chosen === null) {
        forward(exchange);
        return;
      }
      const canary = canaryOf(canaries, chosen.fault, operation);
      if (chosen.layer === "http") {
        executeFault(exchange, chosen.fault, holds, forward, canary);
        return;
      }
      const context = httpMcpContext(exchange, chosen.fault.type, canary, {
        request: message,
        waits,
        cancellations: parts.cancellations,
        send: (relay) => send(exchange, relay),
        changedTools: () => changedTools(session),
      });
      chosen.fault.execute(context);
    } catch {
      failInternally(exchange);
    }
  };

  const handle: AcceptedRequest = (request, response, body, at) => {
    if (body.tooLarge) {
      sendSynthetic(response, REQUEST_TOO_LARGE);
      return;
    }
    const message =
      request.method === "POST" && body.bytes !== null ? classifyMessage(body.bytes.toString("utf8")) : null;
    if (message?.kind === "request") {
      handleRequest(request, response, message, body, at);
      return;
    }
    if (message?.kind === "malformed") parts.countMalformed();
    const cancelled = message === null ? null : cancelledIdKey(message);
    const named = cancelled === null ? undefined : byId.get(`${sessionOf(request)}\0${cancelled}`);
    if (named !== undefined) parts.cancellations.cancel(named, null);
    relayUntracked(request, response, body, at);
  };

  return acceptRequests(ledger, handle);
}
