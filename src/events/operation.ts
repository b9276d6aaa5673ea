import { performance } from "node:perf_hooks";
import type { CanaryType } from "./addition-types.js";
import { RetryCorrelation } from "./retry-correlation.js";
import type { EventPayload, FailureKind, NotAppliedReason } from "./types.js";
import { UuidSource } from "./uuid-source.js";

/** Operation ids: unique in the process, so across every dependency of a run (docs/evidence.md). */
const operationIds = new UuidSource();

/** What identifies an operation: the recorded, safe facts of one request. */
export interface OperationIdentity {
  readonly method: string;
  readonly path: string;
  /** null for MCP operations. */
  readonly queryHash: string | null;
  readonly bodyHash: string;
  readonly fingerprint: string;
  /** `http` (default) or `mcp`. */
  readonly protocol?: "http" | "mcp";
  /** The MCP stdio session number, else null. */
  readonly session?: number | null;
  /** SHA-256 hex of the `Idempotency-Key` header value, else null. */
  readonly idempotencyKeyHash?: string | null;
}

/** What records operation events: the run's recorder (which writes the run's wire form) or a test sink. */
export interface PayloadSink {
  emit(payload: EventPayload): unknown;
  /** Writes what was emitted and not yet written (a recorder's group commit); absent = nothing buffered. */
  flush?(): void;
}

/** Extra facts of a failure (events schema 1 does not write them). */
export interface FailureDetails {
  readonly retryAfterMs?: number | null;
  readonly upstreamStatus?: number | null;
  readonly rpcErrorCode?: number | null;
  readonly relayedEvents?: number | null;
}

/** Extra facts of a success (events schema 1 does not write them). */
export interface SuccessDetails {
  readonly relayedEvents?: number | null;
  readonly closedByClient?: boolean;
}

/** The fault that acts on an operation, as `FAULT_INJECTED` records it. */
export interface InjectedFault {
  /** The fault id (events schema 1 does not write it). */
  readonly id: string;
  readonly type: string;
  /** Integers; schema 3 adds strings (`mcp_malformed` `shape`, docs/events.md). */
  readonly parameters: Readonly<Record<string, number | string>>;
}

/** What a corruption fault's FAULT_INJECTED adds (events schema 3): the pointer and the canary's JSON type. */
export interface InjectionDetails {
  /** Null: a corruption without a pointer that found no leaf value (docs/faults.md). */
  readonly pointer: string | null;
  /** `string`, `number` or `boolean`; null when no value was replaced. */
  readonly canaryType: CanaryType | null;
}

/** How a dependency's operations are settled, beyond what every dependency shares. */
export interface LedgerPolicy {
  /**
   * Whether the events of an event stream (SSE) the proxy relays are counted: a workload that
   * closes a counted stream after whole events succeeded (`closed_by_client`), one that closes an
   * uncounted stream failed (`client_disconnected`). Default true; false for a scenario upgraded
   * from schema 1 (docs/scenario.md).
   */
  readonly countStreamEvents?: boolean;
}

/**
 * All operations of one proxy (one dependency): the sink they record into, retry correlation
 * and the set of operations still without a terminal event. Once sealed (proxy closed)
 * nothing is recorded. Every operation records the internal events; the recorder writes them
 * in the run's wire form (docs/events.md).
 */
export class OperationLedger {
  readonly correlation = new RetryCorrelation();
  readonly dependency: string;
  readonly countStreamEvents: boolean;
  readonly #sink: PayloadSink;
  /** Operations without a terminal event, oldest first: a list through the operations themselves (no allocation per request). */
  #oldest: Operation | null = null;
  #newest: Operation | null = null;
  #sealed = false;
  /**
   * The status a dependency served from its cassette answers a request it never recorded
   * (docs/replay.md): an operation settled on it failed with `replay_mismatch`. Null: live.
   */
  replayMismatchStatus: number | null = null;

  constructor(sink: PayloadSink, dependency: string, policy: LedgerPolicy = {}) {
    this.#sink = sink;
    this.dependency = dependency;
    this.countStreamEvents = policy.countStreamEvents ?? true;
  }

  get sealed(): boolean {
    return this.#sealed;
  }

  begin(identity: OperationIdentity, receivedAt: number): Operation {
    const operation = new Operation(this, identity, receivedAt);
    operation.olderOpen = this.#newest;
    if (this.#newest === null) this.#oldest = operation;
    else this.#newest.newerOpen = operation;
    this.#newest = operation;
    return operation;
  }

  /** Operations still without a terminal event, oldest first. */
  unfinished(): Operation[] {
    const open: Operation[] = [];
    for (let operation = this.#oldest; operation !== null; operation = operation.newerOpen)
      open.push(operation);
    return open;
  }

  seal(): void {
    this.#sealed = true;
  }

  /** @internal */
  emit(payload: EventPayload): void {
    if (!this.#sealed) this.#sink.emit(payload);
  }

  /** Writes the recorded events not yet written, before the proxy sends a response byte. */
  flush(): void {
    this.#sink.flush?.();
  }

  /** @internal */
  finished(operation: Operation): void {
    const { olderOpen, newerOpen } = operation;
    if (olderOpen === null) this.#oldest = newerOpen;
    else olderOpen.newerOpen = newerOpen;
    if (newerOpen === null) this.#newest = olderOpen;
    else newerOpen.olderOpen = olderOpen;
    operation.olderOpen = null;
    operation.newerOpen = null;
  }
}

/**
 * One request's state and its recording helpers. Each operation records exactly one
 * terminal event: `succeed` and `fail` return `false` (and record nothing) once it has one.
 */
export class Operation {
  readonly id = operationIds.next();
  readonly identity: OperationIdentity;
  readonly receivedAt: number;
  /** @internal The ledger's list of open operations. */
  olderOpen: Operation | null = null;
  /** @internal */
  newerOpen: Operation | null = null;
  #ledger: OperationLedger;
  #injected = false;
  #retry = false;
  #finished = false;
  #beforeTerminal: (() => void)[] = [];
  /** A fault whose FAULT_INJECTED waits until it acted (see `injectedLater`). */
  #pendingInjection: InjectedFault | null = null;

  constructor(ledger: OperationLedger, identity: OperationIdentity, receivedAt: number) {
    this.#ledger = ledger;
    this.identity = identity;
    this.receivedAt = receivedAt;
  }

  get fingerprint(): string {
    return this.identity.fingerprint;
  }

  get finished(): boolean {
    return this.#finished;
  }

  get dependency(): string {
    return this.#ledger.dependency;
  }

  /** Whether an event stream relayed for this operation has its events counted (see `LedgerPolicy`). */
  get countsStreamEvents(): boolean {
    return this.#ledger.countStreamEvents;
  }

  /** Whether a fault acted on this operation. */
  get wasInjected(): boolean {
    return this.#injected;
  }

  observe(): void {
    const { method, path, queryHash, bodyHash, fingerprint } = this.identity;
    this.#ledger.emit({
      kind: "OPERATION_OBSERVED",
      operation_id: this.id,
      dependency: this.#ledger.dependency,
      protocol: this.identity.protocol ?? "http",
      method,
      path,
      query_hash: queryHash,
      body_hash: bodyHash,
      fingerprint,
      session: this.identity.session ?? null,
      idempotency_key_hash: this.identity.idempotencyKeyHash ?? null,
    });
  }

  /** Registers this operation as a retry when its fingerprint has an unresolved failure. */
  linkRetry(): void {
    const link = this.#ledger.correlation.observe(this.id, this.fingerprint);
    if (link === null) return;
    this.#retry = true;
    this.#ledger.emit({
      kind: "RETRY_OBSERVED",
      operation_id: this.id,
      retry_of_operation_id: link.retryOf,
      fingerprint: this.fingerprint,
      attempt: link.attempt,
    });
  }

  injected(fault: InjectedFault): void {
    this.#injected = true;
    this.#emitInjected(fault, {});
  }

  #emitInjected(
    fault: InjectedFault,
    details: { pointer?: string | null; canary_type?: CanaryType | null },
  ): void {
    this.#ledger.emit({
      kind: "FAULT_INJECTED",
      operation_id: this.id,
      fault_id: fault.id,
      fault_type: fault.type,
      parameters: { ...fault.parameters },
      ...details,
    });
  }

  /**
   * A fault that records its injection once it acted (a corruption fault knows the canary's type
   * only from the response): the operation counts as injected now; FAULT_INJECTED is recorded by
   * `recordInjection`, or at the latest right before the terminal event.
   */
  injectedLater(fault: InjectedFault, details: InjectionDetails): void {
    this.#injected = true;
    this.#pendingInjection = fault;
    this.beforeTerminal(() => this.recordInjection(details));
  }

  /** Records the FAULT_INJECTED `injectedLater` held back, with what the fault did; once. */
  recordInjection(details: InjectionDetails): void {
    const fault = this.#pendingInjection;
    if (fault === null) return;
    this.#pendingInjection = null;
    this.#emitInjected(fault, { pointer: details.pointer, canary_type: details.canaryType });
  }

  /**
   * A fault that selected this operation did not act on it (docs/evidence.md). Must be
   * recorded before the operation's terminal event.
   */
  notApplied(faultId: string, reason: NotAppliedReason): void {
    this.#ledger.emit({ kind: "FAULT_NOT_APPLIED", operation_id: this.id, fault_id: faultId, reason });
  }

  /** Events schema 3: a token quota counted `tokens` from this operation's answer (docs/triggers.md). */
  tokensCounted(faultId: string, tokens: number): void {
    this.#ledger.emit({ kind: "TOKENS_COUNTED", fault_id: faultId, operation_id: this.id, tokens });
  }

  /** Runs `note` once, right before this operation's terminal event is recorded (whoever records it). */
  beforeTerminal(note: () => void): void {
    if (!this.#finished) this.#beforeTerminal.push(note);
  }

  /** `statusCode` null only for MCP operations. */
  succeed(statusCode: number | null, details: SuccessDetails = {}): boolean {
    if (!this.#finish()) return false;
    const durationMs = Math.max(0, Math.round(performance.now() - this.receivedAt));
    const faultRelated = this.#injected || this.#retry;
    this.#ledger.emit({
      kind: "OPERATION_SUCCEEDED",
      operation_id: this.id,
      fingerprint: this.fingerprint,
      status_code: statusCode,
      duration_ms: durationMs,
      fault_related: faultRelated,
      relayed_events: details.relayedEvents ?? null,
      closed_by_client: details.closedByClient ?? false,
    });
    this.#ledger.correlation.succeeded(this.id);
    return true;
  }

  /** Fault-related exactly when this operation was itself injected. */
  fail(failureKind: FailureKind, statusCode: number | null, details: FailureDetails = {}): boolean {
    if (!this.#finish()) return false;
    this.#ledger.emit({
      kind: "OPERATION_FAILED",
      operation_id: this.id,
      fingerprint: this.fingerprint,
      failure_kind: failureKind,
      status_code: statusCode,
      fault_related: this.#injected,
      retry_after_ms: details.retryAfterMs ?? null,
      upstream_status: details.upstreamStatus ?? null,
      rpc_error_code: details.rpcErrorCode ?? null,
      relayed_events: details.relayedEvents ?? null,
    });
    this.#ledger.correlation.failed(this.id, this.fingerprint, this.#injected);
    return true;
  }

  /** The terminal event of an upstream status: success below 400, else a failure. */
  settle(statusCode: number, details: FailureDetails & SuccessDetails = {}): boolean {
    if (statusCode < 400) return this.succeed(statusCode, details);
    if (statusCode === this.#ledger.replayMismatchStatus)
      return this.fail("replay_mismatch", statusCode, details);
    return this.fail(statusCode === 502 ? "proxy_error" : "upstream_http_error", statusCode, details);
  }

  #finish(): boolean {
    if (this.#finished) return false;
    for (const note of this.#beforeTerminal.splice(0)) note();
    this.#finished = true;
    this.#ledger.finished(this);
    return true;
  }
}
