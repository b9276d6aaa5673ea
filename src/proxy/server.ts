import type { Server as HttpServer } from "node:http";
import type { AddressInfo, ListenOptions, Server, Socket } from "node:net";
import { OperationLedger, type PayloadSink } from "../events/operation.js";
import type { CanaryBook } from "../faults/corruption/canary-book.js";
import type { ArmableHttpFault } from "../faults/registry.js";
import { clockStartedNow, type TriggerClock } from "../triggers/index.js";
import { ProxyError } from "./errors.js";
import { Upstream, type UpstreamPort } from "./forward.js";
import { HeldOperations } from "./holds.js";
import { identityRule } from "./identity.js";
import { createLane, type Lane } from "./lane/lane.js";
import { upstreamTarget } from "./lane/upstream-link.js";
import type { PipelineParts } from "./pipeline.js";
import { guardConnections } from "./write-barrier.js";

export interface ProxyOptions {
  readonly upstreamBaseUrl: string;
  /** This dependency's faults, in scenario order (first selected acts); none by default. */
  readonly faults?: readonly ArmableHttpFault[];
  readonly sink: PayloadSink;
  /** The dependency name its events carry. */
  readonly dependency: string;
  /** Whether relayed event streams have their events counted (`LedgerPolicy`); default true. */
  readonly countStreamEvents?: boolean;
  /** Schema 2 `identity.ignore_json_fields` (JSON Pointers). */
  readonly ignoreJsonFields?: readonly string[];
  /** The run's canaries: corruption faults write theirs, requests to a sink are scanned. */
  readonly canaries?: CanaryBook | null;
  /** What outages and quotas read; absent: a clock of its own, the workload counted as started with the proxy. */
  readonly triggerClock?: TriggerClock;
  /**
   * What stands in for the upstream at `upstreamBaseUrl` (a cassette: docs/replay.md); requests
   * then take the full pipeline alone, as for a TLS upstream.
   */
  readonly upstream?: UpstreamPort;
  /** The upstream is a cassette: this status means a request it never recorded (docs/replay.md). */
  readonly replayMismatchStatus?: number;
}

export interface RunningProxy {
  readonly url: string;
  /** stops listening, ends open connections and pending waits, closes the upstream pool */
  close(): Promise<void>;
}

/**
 * Starts the reverse proxy on 127.0.0.1 (an OS-chosen port). It records only operation
 * events through `sink`. Rejects with a `ProxyError` (code `PROXY_START_FAILED`) when the
 * upstream URL is unusable or it cannot listen.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const configured = options.faults ?? [];
  const upstream = upstreamOf(options.upstream, options.upstreamBaseUrl);
  const ledger = new OperationLedger(options.sink, options.dependency, {
    countStreamEvents: options.countStreamEvents ?? true,
  });
  ledger.replayMismatchStatus = options.replayMismatchStatus ?? null;
  const holds = new HeldOperations();
  const faults =
    configured.length === 0
      ? []
      : (await import("./pipeline-server.js")).armFaults(
          configured,
          options.triggerClock ?? clockStartedNow(),
        );
  const identity = identityRule(options.ignoreJsonFields ?? []);
  const canaries = options.canaries ?? null;
  const pipeline = new LazyPipeline({ ledger, holds, upstream, faults, identity, canaries });
  // An http: upstream gets the fast lane in front; TLS upstreams go through the pipeline alone.
  const target = options.upstream === undefined ? upstreamTarget(options.upstreamBaseUrl) : null;
  let lane: Lane | null = null;
  // A proxy whose pipeline will serve requests has it, and undici, loaded before it listens.
  if (target === null || faults.length > 0) await Promise.all([pipeline.load(), upstream.ready()]);
  if (target === null) {
    // Recorded events reach the file before any byte that follows them (docs/events.md).
    guardConnections(pipeline.server as HttpServer, ledger);
  } else {
    lane = createLane(
      {
        ledger,
        holds,
        faults,
        identity,
        canaries,
        upstream: target,
        handOff: (socket, unread, ended) => pipeline.take(socket, unread, ended),
      },
      ledger,
    );
  }

  const port = await listenOnLoopback(lane?.server ?? (pipeline.server as HttpServer), upstream);

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      const endOpen = () => {
        holds.abandonAll();
        for (const operation of ledger.unfinished()) operation.fail("client_disconnected", null);
      };
      const closeConnections = () => {
        lane?.closeAll();
        pipeline.server?.closeAllConnections();
      };
      const listener = lane?.server ?? (pipeline.server as HttpServer);
      closing ??= stopProxy(listener, upstream, [ledger], endOpen, closeConnections);
      return closing;
    },
  };
}

/**
 * What a proxy forwards to: `upstream` when given (a cassette), else a pool to `baseUrl`. Throws
 * a `ProxyError` (`PROXY_START_FAILED`) when that URL is unusable. Shared by every proxy.
 */
export function upstreamOf(upstream: UpstreamPort | undefined, baseUrl: string): UpstreamPort {
  try {
    return upstream ?? new Upstream(baseUrl);
  } catch (cause) {
    throw new ProxyError("PROXY_START_FAILED", "proxy upstream base URL is not an absolute http(s) URL", {
      cause,
    });
  }
}

/**
 * Listens on 127.0.0.1 at an OS-chosen port and returns it. On failure the upstream pool is
 * closed and a `ProxyError` (`PROXY_START_FAILED`, errno code only) is thrown. Shared by every
 * proxy (the HTTP proxy and the MCP Streamable HTTP proxy).
 */
export async function listenOnLoopback(server: Server, upstream: UpstreamPort): Promise<number> {
  try {
    await listenOrFail(server, { port: 0, host: "127.0.0.1" }, "proxy could not listen on 127.0.0.1");
  } catch (error) {
    await upstream.close().catch(() => {});
    throw error;
  }
  return (server.address() as AddressInfo).port;
}

/**
 * Starts `server` listening as `options` say. A failure is a `ProxyError` (`PROXY_START_FAILED`)
 * worded `<failure> (<errno code>)`; once listening, accept-time errors are dropped (they must
 * not crash the run: the request simply fails).
 */
export async function listenOrFail(server: Server, options: ListenOptions, failure: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options, () => {
        server.off("error", reject);
        server.on("error", () => {});
        resolve();
      });
    });
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    throw new ProxyError(
      "PROXY_START_FAILED",
      `${failure} (${typeof code === "string" ? code : "listen error"})`,
      {
        cause,
      },
    );
  }
}

/**
 * The full pipeline's HTTP server, created when first needed (its module, Node's HTTP server
 * and the fault executors are not loaded before).
 */
class LazyPipeline {
  readonly #parts: PipelineParts;
  #server: HttpServer | null = null;
  #loading: Promise<HttpServer> | null = null;

  constructor(parts: PipelineParts) {
    this.#parts = parts;
  }

  get server(): HttpServer | null {
    return this.#server;
  }

  load(): Promise<HttpServer> {
    this.#loading ??= import("./pipeline-server.js").then((module) => {
      this.#server = module.createPipelineServer(this.#parts);
      return this.#server;
    });
    return this.#loading;
  }

  /**
   * Takes a connection from the fast lane (paused) with the bytes the lane read and did not
   * consume, and lets it flow again. `ended`: the workload already shut its side (the socket
   * can take no bytes back); the server gets the bytes and then the end it did not see.
   */
  take(socket: Socket, unread: Buffer, ended: boolean): void {
    // Put back at once: the end of the stream cannot overtake bytes waiting in it.
    if (!ended && unread.length > 0) socket.unshift(unread);
    const give = (server: HttpServer) => {
      if (socket.destroyed) return;
      server.emit("connection", socket);
      if (!ended) {
        socket.resume();
        return;
      }
      if (unread.length > 0) socket.emit("data", unread);
      socket.emit("end");
    };
    if (this.#server !== null) give(this.#server);
    else this.load().then(give, () => socket.destroy());
  }
}

/**
 * Stops a proxy (every proxy): stops listening; `endOpen` records the end of every operation
 * still open (its workload connection is being ended) and clears pending waits; the ledgers are
 * sealed and flushed (nothing is recorded after this resolves); `closeConnections` destroys the
 * client connections; the upstream pool is closed.
 */
export async function stopProxy(
  listener: Server,
  upstream: UpstreamPort,
  ledgers: readonly OperationLedger[],
  endOpen: () => void,
  closeConnections: () => void,
): Promise<void> {
  const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
  try {
    endOpen();
  } finally {
    for (const ledger of ledgers) ledger.seal();
    try {
      for (const ledger of ledgers) ledger.flush();
    } finally {
      closeConnections();
    }
  }
  await Promise.all([stopped, upstream.close().catch(() => {})]);
}
