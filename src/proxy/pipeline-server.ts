import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type ArmableHttpFault, type ArmedFault, armFault } from "../faults/registry.js";
import type { TriggerClock } from "../triggers/index.js";
import { refuseAfterTurns } from "./connection-turns.js";
import { createRequestHandler, type PipelineParts } from "./pipeline.js";
import { HEAD_TOO_LARGE, MALFORMED_REQUEST } from "./responses.js";

/**
 * The full pipeline's side of the proxy: Node's HTTP server with the request pipeline (fault
 * selection and executors, holds, undici forwarding), and the faults armed for it. Loaded only
 * by a proxy that needs it: one with faults, a TLS upstream, or a connection the fast lane
 * hands over. It accepts, answers and closes exactly as the fast lane does (docs/proxy.md).
 */
export function createPipelineServer(parts: PipelineParts): Server {
  return createProxyServer(createRequestHandler(parts));
}

/**
 * Node's HTTP server as every proxy path that uses it runs it (the full pipeline, MCP over
 * HTTP), with `handler` (see `acceptRequests`, which refuses an HTTP/1.1 request without `Host`
 * itself, in its turn).
 */
export function createProxyServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const server = createServer({ noDelay: true, requireHostHeader: false }, handler);
  // Like the fast lane, never close an idle agent connection: an agent that reuses one just as
  // the proxy closes it would see a transport error the scenario did not inject. Nor a slow
  // one: a timeout nobody configured is a fault nobody injected.
  server.keepAliveTimeout = 0;
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  // Every header line is forwarded, however many (the head limit bounds them).
  server.maxHeadersCount = 0;
  // A workload that shuts its side after its request still gets the answer (HTTP/1.0 style).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", refuseUnreadable);
  return server;
}

/**
 * Node's parser could not read a request (or the connection failed under it). A request it
 * refused is answered after every request before it, as the fast lane answers it: 431 for a
 * head over the limit, 400 for anything else (bad syntax, conflicting framing, a request cut
 * short by a half-close). Bytes after a request that closes the connection are ignored.
 */
function refuseUnreadable(error: Error & { code?: string }, socket: Socket): void {
  const code = error.code ?? "";
  if (!code.startsWith("HPE_")) {
    socket.destroy();
    return;
  }
  if (code === "HPE_CLOSED_CONNECTION") return;
  refuseAfterTurns(socket, code === "HPE_HEADER_OVERFLOW" ? HEAD_TOO_LARGE : MALFORMED_REQUEST);
}

/** Binds each configured fault to a fresh trigger state, in scenario order. */
export function armFaults(configured: readonly ArmableHttpFault[], clock: TriggerClock): ArmedFault[] {
  return configured.map((fault) => armFault(fault, clock));
}
