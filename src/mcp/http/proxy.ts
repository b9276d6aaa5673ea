import { OperationLedger } from "../../events/operation.js";
import { armFault, isArmable } from "../../faults/registry.js";
import { ProxyError } from "../../proxy/errors.js";
import { HeldOperations } from "../../proxy/holds.js";
import { createProxyServer } from "../../proxy/pipeline-server.js";
import {
  listenOnLoopback,
  type ProxyOptions,
  type RunningProxy,
  stopProxy,
  upstreamOf,
} from "../../proxy/server.js";
import { guardConnections } from "../../proxy/write-barrier.js";
import type { Fault } from "../../scenario/types.js";
import { clockStartedNow, type TriggerClock } from "../../triggers/index.js";
import { Cancellations } from "../cancellations.js";
import type { McpDiagnostics } from "../diagnostics.js";
import { armMcpFault, isMcpFault } from "../faults/registry.js";
import { type ArmedMcpLayerFault, LatencyWaits } from "../selection.js";
import { createMcpRequestHandler } from "./handler.js";

/** The HTTP proxy's options, but for its faults and what only plain HTTP has (see `ProxyOptions`). */
export interface McpHttpProxyOptions
  extends Omit<ProxyOptions, "faults" | "countStreamEvents" | "ignoreJsonFields"> {
  /** This dependency's faults in scenario order: `mcp_*`, and the five classic `http_*` with MCP targets. */
  readonly faults: readonly Fault[];
  /** Whether the agent's cancellations are recorded as MCP_CANCELLED (events schema 3). */
  readonly recordsCancellations?: boolean;
}

export interface RunningMcpProxy extends RunningProxy {
  diagnostics(): McpDiagnostics;
}

function arm(fault: Fault, clock: TriggerClock): ArmedMcpLayerFault {
  const { id, type } = fault;
  if (isMcpFault(fault)) return { layer: "mcp", fault: armMcpFault(fault, clock) };
  if (isArmable(fault)) return { layer: "http", fault: armFault(fault, clock) };
  throw new ProxyError("PROXY_START_FAILED", `fault ${id} (${type}) cannot act on an MCP dependency`);
}

/**
 * The proxy of a `type: http`, `protocol: mcp` dependency (docs/mcp.md, Streamable HTTP): on
 * 127.0.0.1, an OS-chosen port, forwarding as the HTTP proxy does, recording one MCP operation
 * per POSTed JSON-RPC request. Rejects with `PROXY_START_FAILED` as `startProxy` does.
 */
export async function startMcpHttpProxy(options: McpHttpProxyOptions): Promise<RunningMcpProxy> {
  const clock = options.triggerClock ?? clockStartedNow();
  const faults = options.faults.map((fault) => arm(fault, clock));
  const upstream = upstreamOf(options.upstream, options.upstreamBaseUrl);
  const ledger = new OperationLedger(options.sink, options.dependency);
  ledger.replayMismatchStatus = options.replayMismatchStatus ?? null;
  const untracked = new OperationLedger({ emit: () => undefined }, options.dependency);
  const holds = new HeldOperations();
  const waits = new LatencyWaits();
  let malformed = 0;
  const handler = createMcpRequestHandler({
    ledger,
    untracked,
    holds,
    waits,
    upstream,
    faults,
    cancellations: new Cancellations(ledger, options.recordsCancellations === true),
    canaries: options.canaries ?? null,
    countMalformed: () => {
      malformed++;
    },
  });
  // Node's server as the HTTP proxy runs it: half-closed requests answered, unreadable ones refused alike.
  const server = createProxyServer(handler);
  // Recorded events reach the file before any byte that follows them (docs/events.md).
  guardConnections(server, ledger);
  await upstream.ready();
  const port = await listenOnLoopback(server, upstream);
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    diagnostics: () => ({ malformedMessages: malformed }),
    close() {
      const endOpen = () => {
        for (const operation of ledger.unfinished()) operation.fail("connection_closed", null);
        holds.abandonAll();
        for (const operation of untracked.unfinished()) operation.fail("client_disconnected", null);
      };
      closing ??= stopProxy(server, upstream, [ledger, untracked], endOpen, () =>
        server.closeAllConnections(),
      );
      return closing;
    },
  };
}
