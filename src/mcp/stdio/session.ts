import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { Operation, OperationLedger, PayloadSink } from "../../events/operation.js";
import type { CanaryBook } from "../../faults/corruption/canary-book.js";
import { faultCanary } from "../../faults/corruption/fault-canary.js";
import type { FaultCanary } from "../../faults/types.js";
import type { McpStdioDependency, McpTarget } from "../../scenario/types-v2.js";
import type { Cancellations } from "../cancellations.js";
import type { McpFaultContext } from "../faults/types.js";
import { mcpIdentity } from "../identity.js";
import { recordOutcome } from "../outcome.js";
import { type ArmedMcpLayerFault, type LatencyWaits, selectFault } from "../selection.js";
import { stopGroup } from "../stop-group.js";
import {
  type Decision,
  onMessages,
  type RunMessage,
  type ShimMessage,
  send,
  type WatchedCanary,
} from "./channel.js";

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
  /** Whether the run still accepts shims. */
  accepting(): boolean;
  /** The next session number (1, 2, … in the order servers start). */
  nextSession(): number;
  /** One malformed JSON-RPC line seen by a shim. */
  countMalformed(): void;
}

interface OpenRequest {
  readonly operation: Operation;
  /** Set by `mcp_latency`: how long the answer is held after it arrives. */
  delayMs: number | null;
  timer: NodeJS.Timeout | undefined;
  /** Set by `mcp_oversized`: a result answer is handed over padded, as an injected failure. */
  padded?: boolean;
  /** Set by `mcp_corrupt_result`: records what the shim did to the answer. */
  canary?: FaultCanary;
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
    this.#reply({
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
    this.#serverPid = pid;
    this.#emit({
      kind: "SESSION_STARTED",
      dependency: this.#parts.dependency.name,
      session: this.#number,
      pid,
    });
  }

  #request(message: Extract<ShimMessage, { type: "request" }>): void {
    const { key, method, path, bodyHash, id, decide } = message;
    const session = this.#number;
    if (session === null || this.#ended || this.#parts.ledger.sealed) return;
    if (typeof method !== "string" || typeof path !== "string" || typeof bodyHash !== "string") return;
    const operation = this.#parts.ledger.begin(
      mcpIdentity({ method, path, bodyHash }, session),
      performance.now(),
    );
    const request: OpenRequest = { operation, delayMs: null, timer: undefined };
    this.#open.set(key, request);
    const waits = this.#parts.waits;
    const chosen = selectFault(operation, this.#parts.faults, (fingerprint) => waits.supersede(fingerprint));
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
    const { key, method, path, bodyHash } = message;
    const session = this.#number;
    const recordable =
      session !== null &&
      !this.#ended &&
      !this.#parts.ledger.sealed &&
      typeof method === "string" &&
      typeof path === "string" &&
      typeof bodyHash === "string";
    if (recordable) {
      const operation = this.#parts.ledger.begin(
        mcpIdentity({ method, path, bodyHash }, session),
        performance.now(),
      );
      operation.observe();
      operation.fail("proxy_error", null);
    }
    this.#reply({ type: "ack", key });
  }

  /** The answer to request `key` was refused for its size: the request fails `proxy_error`. */
  #oversizedResponse(key: number): void {
    const request = this.#open.get(key);
    if (request !== undefined) {
      clearTimeout(request.timer);
      this.#open.delete(key);
      this.#parts.waits.remove(request.operation);
      request.operation.fail("proxy_error", null);
    }
    this.#reply({ type: "ack", key });
  }

  #context(
    key: number,
    request: OpenRequest,
    requestId: string,
    canary: FaultCanary | null,
  ): McpFaultContext {
    const { operation } = request;
    const finish = (decision: Decision): void => {
      this.#open.delete(key);
      this.#decide(key, decision);
    };
    return {
      requestId,
      canary,
      corruptAnswer: (tokens, acting) => {
        request.canary = acting;
        operation.beforeTerminal(() => acting.notReplaced("pointer_not_found"));
        const { text, integer } = acting.values;
        this.#decide(key, {
          action: "forward",
          delayed: false,
          corrupt: { tokens: [...tokens], text, integer },
        });
      },
      answer: (message, failureKind, details) => {
        operation.fail(failureKind, null, details);
        finish({ action: "answer", message });
      },
      withhold: (failureKind) => {
        operation.fail(failureKind, null);
        this.#withheld.set(key, operation);
        finish({ action: "withhold" });
      },
      disconnect: (failureKind) => {
        operation.fail(failureKind, null);
        finish({ action: "disconnect" });
      },
      delayAnswer: (ms) => {
        request.delayMs = ms;
        this.#parts.waits.add(operation, () => operation.fail("client_timeout_inferred", null));
        this.#decide(key, { action: "forward", delayed: true });
      },
      padAnswer: (sizeBytes) => {
        request.padded = true;
        this.#decide(key, { action: "forward", delayed: false, padTo: sizeBytes });
      },
      changeTools: (remove, require) => {
        const { method, path } = operation.identity;
        const toolsChange = { remove, require, tool: method === "tools/call" ? path : null };
        this.#decide(key, { action: "forward", delayed: false, toolsChange });
      },
    };
  }

  /** The agent's `notifications/cancelled` named request `key`. */
  #cancelled(key: number): void {
    const operation = this.#open.get(key)?.operation ?? this.#withheld.get(key);
    if (operation === undefined || this.#number === null || this.#parts.ledger.sealed) return;
    this.#withheld.delete(key);
    this.#parts.cancellations.cancel(operation, this.#number);
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
      this.#open.delete(key);
      this.#parts.waits.remove(request.operation);
      if (request.padded === true && outcome.kind !== "rpc_error") {
        request.operation.fail("injected_oversized", null);
      } else {
        recordOutcome(request.operation, outcome);
      }
      this.#reply({ type: "ack", key });
    };
    if (request.delayMs === null) handOver();
    else request.timer = setTimeout(handOver, request.delayMs);
  }

  /** Records what is still open as `connection_closed`, then `SESSION_ENDED`; once. */
  #end(exitCode: number | null): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const request of this.#open.values()) {
      clearTimeout(request.timer);
      this.#parts.waits.remove(request.operation);
      request.operation.fail("connection_closed", null);
    }
    this.#open.clear();
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
