import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { EventPayload, EventSink, FailureKind } from "../events/types.js";
import type { FaultType } from "../scenario/types.js";
import { RetryCorrelation } from "./correlation.js";

/** What identifies an operation: the recorded, safe facts of one request. */
export interface OperationIdentity {
  readonly method: string;
  readonly path: string;
  readonly queryHash: string;
  readonly bodyHash: string;
  readonly fingerprint: string;
}

/**
 * All operations of one proxy: the sink they record into, retry correlation and the set of
 * operations still without a terminal event. Once sealed (proxy closed) nothing is recorded.
 */
export class OperationLedger {
  readonly correlation = new RetryCorrelation();
  readonly #sink: EventSink;
  readonly #open = new Set<Operation>();
  #sealed = false;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  get sealed(): boolean {
    return this.#sealed;
  }

  begin(identity: OperationIdentity, receivedAt: number): Operation {
    const operation = new Operation(this, identity, receivedAt);
    this.#open.add(operation);
    return operation;
  }

  /** Operations still without a terminal event, oldest first. */
  unfinished(): Operation[] {
    return [...this.#open];
  }

  seal(): void {
    this.#sealed = true;
  }

  /** @internal */
  emit(payload: EventPayload): void {
    if (!this.#sealed) this.#sink.emit(payload);
  }

  /** @internal */
  finished(operation: Operation): void {
    this.#open.delete(operation);
  }
}

/**
 * One request's state and its recording helpers. Each operation records exactly one
 * terminal event: `succeed` and `fail` return `false` (and record nothing) once it has one.
 */
export class Operation {
  readonly id = randomUUID();
  readonly identity: OperationIdentity;
  readonly receivedAt: number;
  #ledger: OperationLedger;
  #injected = false;
  #retry = false;
  #finished = false;

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

  observe(): void {
    const { method, path, queryHash, bodyHash, fingerprint } = this.identity;
    this.#ledger.emit({
      kind: "OPERATION_OBSERVED",
      operation_id: this.id,
      protocol: "http",
      method,
      path,
      query_hash: queryHash,
      body_hash: bodyHash,
      fingerprint,
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

  injected(faultType: FaultType, parameters: Readonly<Record<string, number>>): void {
    this.#injected = true;
    this.#ledger.emit({
      kind: "FAULT_INJECTED",
      operation_id: this.id,
      fault_type: faultType,
      parameters: { ...parameters },
    });
  }

  succeed(statusCode: number): boolean {
    if (!this.#finish()) return false;
    this.#ledger.emit({
      kind: "OPERATION_SUCCEEDED",
      operation_id: this.id,
      fingerprint: this.fingerprint,
      status_code: statusCode,
      duration_ms: Math.max(0, Math.round(performance.now() - this.receivedAt)),
      fault_related: this.#injected || this.#retry,
    });
    this.#ledger.correlation.succeeded(this.id);
    return true;
  }

  /** Fault-related exactly when this operation was itself injected. */
  fail(failureKind: FailureKind, statusCode: number | null): boolean {
    if (!this.#finish()) return false;
    this.#ledger.emit({
      kind: "OPERATION_FAILED",
      operation_id: this.id,
      fingerprint: this.fingerprint,
      failure_kind: failureKind,
      status_code: statusCode,
      fault_related: this.#injected,
    });
    this.#ledger.correlation.failed(this.id, this.fingerprint, this.#injected);
    return true;
  }

  /** The terminal event of an upstream status: success below 400, else a failure. */
  settle(statusCode: number): boolean {
    if (statusCode < 400) return this.succeed(statusCode);
    return this.fail(statusCode === 502 ? "proxy_error" : "upstream_http_error", statusCode);
  }

  #finish(): boolean {
    if (this.#finished) return false;
    this.#finished = true;
    this.#ledger.finished(this);
    return true;
  }
}
