import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OperationLedger, type PayloadSink } from "../../events/operation.js";
import type { CanaryBook } from "../../faults/corruption/canary-book.js";
import { ProxyError } from "../../proxy/errors.js";
import { listenOrFail } from "../../proxy/server.js";
import { guardSocket } from "../../proxy/write-barrier.js";
import type { Fault, McpStdioDependency } from "../../scenario/types.js";
import { clockStartedNow, type TriggerClock } from "../../triggers/index.js";
import { Cancellations } from "../cancellations.js";
import type { McpDiagnostics } from "../diagnostics.js";
import { armMcpFault, isMcpFault } from "../faults/registry.js";
import { type ArmedMcpLayerFault, LatencyWaits } from "../selection.js";
import type { StdioReplay } from "./cassette-lines.js";
import { HostSession } from "./session.js";
import { shimInvocation } from "./shim-invocation.js";

export interface McpStdioHostOptions {
  readonly dependency: McpStdioDependency;
  /** This dependency's faults, in scenario order (all `mcp_*`). */
  readonly faults: readonly Fault[];
  readonly sink: PayloadSink;
  /** The run's canaries (corruption faults and their sinks). */
  readonly canaries?: CanaryBook | null;
  readonly runDir: string;
  readonly runId: string;
  /** The run is interrupted: every session is stopped and no shim may join any more. */
  readonly interrupt: AbortSignal;
  /** What outages and quotas read; absent: a clock of its own (see `ProxyOptions.triggerClock`). */
  readonly triggerClock?: TriggerClock;
  /**
   * The script the shim runs from: the built shim of this package (default), or an `agentchaos`
   * CLI script, which runs the same shim as its `mcp-shim` command.
   */
  readonly cliPath?: string;
  /** Whether the agent's cancellations are recorded as MCP_CANCELLED (events schema 3). */
  readonly recordsCancellations?: boolean;
  /** Served from or recorded into a cassette (docs/replay.md); absent: live. */
  readonly replay?: StdioReplay | null;
}

export interface McpStdioHost {
  /** `AGENTCHAOS_<NAME>_COMMAND` and `AGENTCHAOS_<NAME>_ARGS` for the workload. */
  readonly env: Record<string, string>;
  diagnostics(): McpDiagnostics;
  /**
   * Stops every shim's server, records `SESSION_ENDED` and terminal evidence for open
   * operations; nothing more is recorded after it resolves.
   */
  close(): Promise<void>;
}

/** How long shims get to stop their servers and report before they are cut off. */
const STOP_DEADLINE_MS = 3000;

/**
 * The run's side of an `mcp_stdio` dependency (docs/mcp.md): a Unix socket in a private temp
 * folder (mode 0700) that only shims holding this run's secret can join. It keeps the
 * dependency's trigger counters, retry correlation and operation ledger, so that selection is
 * exact across sessions and concurrent shims.
 */
export async function startMcpStdioHost(options: McpStdioHostOptions): Promise<McpStdioHost> {
  const { dependency, sink, interrupt } = options;
  const clock = options.triggerClock ?? clockStartedNow();
  const faults: ArmedMcpLayerFault[] = options.faults.map((fault) => {
    if (!isMcpFault(fault)) {
      throw new ProxyError("PROXY_START_FAILED", `fault ${fault.id} cannot act on an mcp_stdio dependency`);
    }
    return { layer: "mcp", fault: armMcpFault(fault, clock) };
  });
  const folder = await mkdtemp(join(tmpdir(), "agentchaos-mcp-"));
  await chmod(folder, 0o700);
  const socketPath = join(folder, "run.sock");
  const secret = randomBytes(32).toString("hex");
  const ledger = new OperationLedger(sink, dependency.name);
  const waits = new LatencyWaits();
  const cancellations = new Cancellations(ledger, options.recordsCancellations === true);
  const sessions = new Set<HostSession>();
  let sessionCount = 0;
  let malformed = 0;
  let accepting = true;
  options.canaries?.onArm(({ faultId, sinks, literals }) => {
    if (!sinks.has(dependency.name)) return;
    for (const session of sessions) session.watch([{ faultId, literals }]);
  });
  const stopAll = (): void => {
    accepting = false;
    for (const session of sessions) session.stop();
  };

  const server = createServer((socket) => {
    // Recorded events reach the file before the shim hears of anything that follows them.
    guardSocket(socket, ledger);
    const session = new HostSession(socket, {
      dependency,
      secret,
      sink,
      ledger,
      faults,
      waits,
      cancellations,
      targets: options.faults.map((fault) => fault.target).filter((target) => target.kind === "mcp"),
      canaries: options.canaries ?? null,
      replay: options.replay ?? null,
      accepting: () => accepting,
      nextSession: () => ++sessionCount,
      countMalformed: () => {
        malformed++;
      },
    });
    sessions.add(session);
    void session.closed.then(() => sessions.delete(session));
  });
  try {
    await listenOrFail(server, { path: socketPath }, "MCP channel could not listen");
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  if (interrupt.aborted) stopAll();
  else interrupt.addEventListener("abort", stopAll, { once: true });

  const invocation = shimInvocation(options.cliPath, [
    "--dependency",
    dependency.name,
    "--channel",
    socketPath,
    "--secret",
    secret,
  ]);
  const name = dependency.name.toUpperCase();
  let closing: Promise<void> | null = null;
  return {
    env: {
      [`AGENTCHAOS_${name}_COMMAND`]: invocation.command,
      [`AGENTCHAOS_${name}_ARGS`]: JSON.stringify(invocation.args),
    },
    diagnostics: () => ({ malformedMessages: malformed }),
    close() {
      closing ??= (async () => {
        interrupt.removeEventListener("abort", stopAll);
        stopAll();
        const pending = [...sessions].map((session) => session.closed);
        const timer = setTimeout(() => {
          for (const session of sessions) session.abandon();
        }, STOP_DEADLINE_MS);
        await Promise.all(pending);
        clearTimeout(timer);
        ledger.seal();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await rm(folder, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
