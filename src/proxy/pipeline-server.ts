import { createServer, type Server } from "node:http";
import { type ArmableHttpFault, type ArmedFault, armFault } from "../faults/registry.js";
import { createRequestHandler, type PipelineParts } from "./pipeline.js";

/**
 * The full pipeline's side of the proxy: Node's HTTP server with the request pipeline (fault
 * selection and executors, holds, undici forwarding), and the faults armed for it. Loaded only
 * by a proxy that needs it: one with faults, a TLS upstream, or a connection the fast lane
 * hands over.
 */
export function createPipelineServer(parts: PipelineParts): Server {
  const server = createServer({ noDelay: true }, createRequestHandler(parts));
  // Like the fast lane, never close an idle agent connection: an agent that reuses one just as
  // the proxy closes it would see a transport error the scenario did not inject.
  server.keepAliveTimeout = 0;
  return server;
}

/** Binds each configured fault to a fresh trigger state, in scenario order. */
export function armFaults(configured: readonly ArmableHttpFault[]): ArmedFault[] {
  return configured.map((fault) => armFault(fault));
}
