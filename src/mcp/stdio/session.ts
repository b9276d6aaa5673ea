import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { Operation, OperationLedger, PayloadSink } from "../../events/operation.js";
import type { CanaryBook } from "../../faults/corruption/canary-book.js";
import { faultCanary } from "../../faults/corruption/fault-canary.js";
import type { FaultCanary } from "../../faults/types.js";
import type { McpStdioDependency, McpTarget } from "../../scenario/types.js";
import type { Cancellations } from "../cancellations.js";
import type { McpFaultContext } from "../faults/types.js";
import { mcpIdentity } from "../identity.js";
import { recordOutcome } from "../outcome.js";
import { type ArmedMcpLayerFault, type LatencyWaits, selectFault } from "../selection.js";
import { stopGroup } from "../stop-group.js";
import { type StdioReplay, StdioSessionRecorder } from "./cassette-lines.js";
import {
  type Decision,
  onMessages,
  type RunMessage,
  type ShimMessage,
  send,
  type WatchedCanary,
} from "./channel.js";
import { type OpenRequest, stdioFaultContext } from "./fault-context.js";

/** What every session of one dependency shares: the run's side of the counters and evidence. */
export interface SessionParts {
  readonly dependency: McpStdioDependency;
  readonly secret: string;
  readonly sink: PayloadSink;
  readonly ledger: OperationLedger;
  readonly faults: readonly ArmedMcpLayerFault[];
  readonly waits: LatencyWaits;
  readonly cancellations: Cancellations;
  /** The targets of `faults`, for the shim to tell which requests need a decision. */
  readonly targets: readonly McpTarget[];
  /** The run's canaries (corruption faults and their sinks); null when it has none. */
  readonly canaries: CanaryBook | null;
  /** Served from or recorded into a cassette (docs/replay.md); null: live. */
  readonly replay?: StdioReplay | null;
  /** Whether the run still accepts shims. */
  accepting(): boolean;
  /** The next session number (1, 2, … in the order servers start). */
  nextSession(): number;
  /** One malformed JSON-RPC line seen by a shim. */
  countMalformed(): void;
}

/** A shim that does not join within this time is disconnected. */
const JOIN_TIMEOUT_MS = 5000;
/** After the run's side ends a session, what is left of its server's process group gets this long. */
const SERVER_GRACE_MS = 2000;

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The run's side of one shim connection: it authenticates the shim, decides each request's
 * fault with the dependency's shared trigger state, and records the session's evidence.
 */
export class HostSession {
  /** Resolves when the connection is closed and the session's evidence is complete. */
  readonly closed: Promise<void>;
  readonly #socket: Socket;
  readonly #parts: SessionParts;
  readonly #open = new Map<number, OpenRequest>();
  /** Requests left unanswered by `mcp_no_response`: the agent may still cancel them. */
  readonly #withheld = new Map<number, Operation>();
  #joined = false;
  #number: number | null = null;
  #serverPid: number | null = null;
  #ended = false;
  #serverStopped: Promise<void> = Promise.resolve();
  /** Recording: this session's requests and answers. */
  #recorder: StdioSessionRecorder | null = null;
  /** Replay: ids of the requests answered as mismatches. */
  readonly #mismatched = new Set<string>();

  constructor(socket: Socket, parts: SessionParts) {
    this.#socket = socket;
    this.#parts = parts;
    socket.setNoDelay(true);
    const joinTimer = setTimeout(() => socket.destroy(), JOIN_TIMEOUT_MS);
    this.closed = new Promise((resolve) => {
      socket.once("close", () => {
        clearTimeout(joinTimer);
        this.#end(null);
        void this.#serverStopped.then(resolve);
      });
    });
    socket.on("error", () => {});
    onMessages<ShimMessage>(socket, (message) => {
      if (this.#joined) {
        this.#handle(message);
        return;
      }
      clearTimeout(joinTimer);
      this.#join(message);
    });
  }

  /** The run ends: the shim stops its server and reports how it ended. */
  stop(): void {
    this.#reply({ type: "stop" });
  }

  /** The shim did not finish in time: cut it off (its server is stopped from here). */
  abandon(): void {
    this.#socket.destroy();
  }

  #reply(message: RunMessage): void {
    send(this.#socket, message);
  }

  #join(message: ShimMessage): void {
    const { dependency } = this.#parts;
    const valid =
      message.type === "join" &&
      sameSecret(message.secret, this.#parts.secret) &&
      message.dependency === dependency.name &&
      this.#parts.accepting();
    if (!valid) {
      this.#reply({ type: "refused" });
      this.#socket.end();
      return;
    }
    this.#joined = true;
    const replay = this.#parts.replay ?? null;
    if (replay?.mode === "record") this.#recorder = new StdioSessionRecorder(replay.builder, replay.redact);
    this.#reply({
      ...(replay === null ? {} : { replay: replay.mode }),
      type: "welcome",
      command: dependency.command,
      cwd: dependency.cwd,
      env: dependency.env,
      targets: this.#parts.targets,
      canaries: this.#parts.canaries?.watchedBy(dependency.name) ?? [],
    });
  }

  /** A canary this dependency is a sink of was armed: the shim looks for it from now on. */
  watch(canaries: readonly WatchedCanary[]): void {
    if (this.#joined) this.#reply({ type: "canaries", canaries });
  }

  #handle(message: ShimMessage): void {
    switch (message.type) {
      case "spawned":
        this.#started(message.pid);
        return;
      case "request":
        this.#request(message);
        return;
      case "response":
        this.#response(message.key, message.kind, message.code, message.corrupted);
        return;
      case "oversized_request":
        this.#oversizedRequest(message);
        return;
      case "oversized_response":
        this.#oversizedResponse(message.key);
        return;
      case "cancelled":
        this.#cancelled(message.key);
        return;
      case "server_line":
        this.#serveLine(message.line);
        return;
      case "tapped":
        if (typeof message.line === "string") this.#recorder?.tapped(message.from, message.line);
        return;
      case "malformed":
        this.#parts.countMalformed();
        return;
      case "exited":
        this.#end(typeof message.exitCode === "number" ? message.exitCode : null);
        this.#reply({ type: "ended" });
        return;
      default:
        return;
    }
  }

  #started(pid: unknown): void {
    if (this.#number !== null || typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return;
    this.#number = this.#parts.nextSession();
    // A replayed session's pid is the shim's own: never signalled from here.
    if (this.#parts.replay?.mode !== "serve") this.#serverPid = pid;
    this.#emit({
      kind: "SESSION_STARTED",
      dependency: this.#parts.dependency.name,
      session: this.#number,
      pid,
    });
  }

  /** The operation of a request the shim reported; null once nothing is recorded, or for a fact not a string. */
  #begin(message: { method: unknown; path: unknown; bodyHash: unknown }): Operation | null {
    const { method, path, bodyHash } = message;
    const session = this.#number;
    if (session === null || this.#ended || this.#parts.ledger.sealed) return null;
    if (typeof method !== "string" || typeof path !== "string" || typeof bodyHash !== "string") return null;
    return this.#parts.ledger.begin(mcpIdentity({ method, path, bodyHash }, session), performance.now());
  }

  #request(message: Extract<ShimMessage, { type: "request" }>): void {
    const { key, id, decide } = message;
    const operation = this.#begin(message);
    if (operation === null) return;
    const request: OpenRequest = { operation, delayMs: null, timer: undefined, id: String(id) };
    this.#open.set(key, request);
    const chosen = selectFault(operation, this.#parts.faults, this.#parts.waits);
    const { canaries } = this.#parts;
    if (canaries !== null && Array.isArray(message.canaries)) {
      for (const faultId of message.canaries)
        if (typeof faultId === "string")
          canaries.reportSeen(faultId, this.#parts.dependency.name, operation.id);
    }
    // A request no fault targets was forwarded already (the shim matches the same targets).
    if (decide !== true) return;
    if (chosen === null || chosen.layer !== "mcp") {
      this.#decide(key, { action: "forward", delayed: false });
      return;
    }
    const deferred = chosen.fault.deferredInjection;
    const canary =
      canaries === null || deferred === undefined
        ? null
        : faultCanary(canaries, chosen.fault.id, deferred.pointer, operation);
    chosen.fault.execute(this.#context(key, request, String(id), canary));
  }

  /**
   * A request the shim refused for its size: an operation that fails `proxy_error` at once (no
   * fault selects it, as an oversized HTTP request); the shim answers the agent on the ack.
   */
  #oversizedRequest(message: Extract<ShimMessage, { type: "oversized_request" }>): void {
    const operation = this.#begin(message);
    operation?.observe();
    operation?.fail("proxy_error", null);
    this.#reply({ type: "ack", key: message.key });
  }

  /** The answer to request `key` was refused for its size: the request fails `proxy_error`. */
  #oversizedResponse(key: number): void {
    this.#close(key)?.operation.fail("proxy_error", null);
    this.#reply({ type: "ack", key });
  }

  #context(
    key: number,
    request: OpenRequest,
    requestId: string,
    canary: FaultCanary | null,
  ): McpFaultContext {
    return stdioFaultContext(request, requestId, canary, this.#parts.waits, {
      decide: (decision) => this.#decide(key, decision),
      finish: (decision) => {
        this.#open.delete(key);
        this.#decide(key, decision);
      },
      withheld: (operation) => this.#withheld.set(key, operation),
    });
  }

  /** The agent's `notifications/cancelled` named request `key`. */
  #cancelled(key: number): void {
    const operation = this.#open.get(key)?.operation ?? this.#withheld.get(key);
    if (operation === undefined || this.#number === null || this.#parts.ledger.sealed) return;
    this.#withheld.delete(key);
    this.#parts.cancellations.cancel(operation, this.#number);
  }

  /** Request `key` is no longer open: its answer's timer and latency wait end. */
  #close(key: number): OpenRequest | undefined {
    const request = this.#open.get(key);
    if (request === undefined) return undefined;
    clearTimeout(request.timer);
    this.#open.delete(key);
    this.#parts.waits.remove(request.operation);
    return request;
  }

  #decide(key: number, decision: Decision): void {
    this.#reply({ type: "decision", key, ...decision });
  }

  #response(key: number, kind: unknown, code: unknown, corrupted: unknown): void {
    const request = this.#open.get(key);
    if (request === undefined) {
      this.#reply({ type: "ack", key });
      return;
    }
    const canary = request.canary;
    if (canary !== undefined) {
      if (corrupted === "string" || corrupted === "number" || corrupted === "boolean")
        canary.replaced(corrupted);
      else canary.notReplaced(corrupted === "not_json" ? "not_json" : "pointer_not_found");
    }
    const outcome =
      kind === "tool_error"
        ? ({ kind: "tool_error" } as const)
        : kind === "rpc_error"
          ? ({ kind: "rpc_error", code: Number.isInteger(code) ? (code as number) : null } as const)
          : ({ kind: "result" } as const);
    const handOver = (): void => {
      request.timer = undefined;
      this.#close(key);
      if (request.id !== undefined && this.#mismatched.delete(request.id)) {
        request.operation.fail("replay_mismatch", null);
      } else if (request.padded === true && outcome.kind !== "rpc_error") {
        request.operation.fail("injected_oversized", null);
      } else {
        recordOutcome(request.operation, outcome);
      }
      this.#reply({ type: "ack", key });
    };
    if (request.delayMs === null) handOver();
    else request.timer = setTimeout(handOver, request.delayMs);
  }

  /** Replay: the line the shim would have sent the server, answered from the cassette. */
  #serveLine(line: unknown): void {
    const replay = this.#parts.replay;
    if (typeof line !== "string" || replay?.mode !== "serve" || this.#ended) return;
    const served = replay.server.serve(line);
    if (served.mismatchedId !== null) this.#mismatched.add(served.mismatchedId);
    if (served.answer !== null) this.#reply({ type: "server_line", line: served.answer });
  }

  /** Records what is still open as `connection_closed`, then `SESSION_ENDED`; once. */
  #end(exitCode: number | null): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const key of [...this.#open.keys()]) this.#close(key)?.operation.fail("connection_closed", null);
    this.#withheld.clear();
    if (this.#number !== null) {
      this.#emit({
        kind: "SESSION_ENDED",
        dependency: this.#parts.dependency.name,
        session: this.#number,
        exit_code: exitCode,
      });
    }
    // A shim that vanished without reporting leaves its server behind: stop the group here.
    if (this.#serverPid !== null) this.#serverStopped = stopGroup(this.#serverPid, SERVER_GRACE_MS);
  }

  #emit(payload: Parameters<PayloadSink["emit"]>[0]): void {
    if (!this.#parts.ledger.sealed) this.#parts.sink.emit(payload);
  }
}
