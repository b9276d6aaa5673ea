/**
 * Builds realistic, valid schema-2 event streams for tests (docs/events.md): UUID event ids,
 * increasing sequence, elapsed time and timestamps, payload keys in the documented order (docs/events.md).
 *
 *   runBuilder().setup(["api"]).observed("op-1", "fp-a").injected("op-1", "f1")
 *     .failed("op-1", "injected_http_error").observed("op-2", "fp-a").retry("op-2", "op-1")
 *     .succeeded("op-2").workloadCompleted().events()
 */
import { randomUUID } from "node:crypto";
import type { RunErrorReason, RunResult } from "../../src/events/types.js";
import {
  type AgentChaosEvent,
  EVENT_COMPONENT,
  type EventPayload,
  type FailureKind,
  type NotAppliedReason,
} from "../../src/events/types.js";

const DEFAULT_FAILURE_STATUS: Partial<Record<FailureKind, number>> = {
  injected_http_error: 503,
  injected_rate_limit: 429,
  injected_llm_error: 529,
  upstream_http_error: 500,
};

const EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export interface ObservedOptions {
  readonly dependency?: string;
  readonly protocol?: "http" | "mcp";
  readonly method?: string;
  readonly path?: string;
  readonly idempotencyKeyHash?: string | null;
  readonly session?: number | null;
}

export interface FailedOptions {
  readonly statusCode?: number | null;
  readonly faultRelated?: boolean;
  readonly retryAfterMs?: number | null;
  readonly upstreamStatus?: number | null;
  readonly rpcErrorCode?: number | null;
  readonly relayedEvents?: number | null;
}

export interface SucceededOptions {
  readonly statusCode?: number | null;
  readonly durationMs?: number;
  readonly faultRelated?: boolean;
  readonly relayedEvents?: number | null;
  readonly closedByClient?: boolean;
}

interface Operation {
  readonly fingerprint: string;
  readonly protocol: "http" | "mcp";
  injected: boolean;
}

export class RunBuilder {
  readonly runId = "20261129T183821Z-1a2b3c4d";
  readonly #origin = Date.parse("2026-11-29T18:38:21.000Z");
  readonly #events: AgentChaosEvent[] = [];
  readonly #operations = new Map<string, Operation>();
  readonly #retries = new Set<string>();
  #elapsed = 0;
  #nextElapsed: number | null = null;

  /** The next event gets this `elapsed_ms` (otherwise each event is 1 ms after the previous one). */
  at(elapsedMs: number): this {
    this.#nextElapsed = elapsedMs;
    return this;
  }

  /** Appends any payload; `envelope` overrides envelope fields (e.g. a duplicate `sequence`). */
  emit(payload: EventPayload, envelope: Partial<AgentChaosEvent> = {}): this {
    const previous = this.#events.at(-1);
    this.#elapsed = this.#nextElapsed ?? (previous === undefined ? 0 : this.#elapsed + 1);
    this.#nextElapsed = null;
    this.#events.push({
      schema_version: 2,
      event_id: randomUUID(),
      run_id: this.runId,
      sequence: (previous?.sequence ?? 0) + 1,
      timestamp: new Date(this.#origin + this.#elapsed).toISOString(),
      elapsed_ms: this.#elapsed,
      type: payload.kind,
      component: EVENT_COMPONENT[payload.kind],
      payload,
      ...envelope,
    });
    return this;
  }

  /** RUN_STARTED, then per dependency (managed ones started and ready) INJECTOR_STARTED, WORKLOAD_STARTED. */
  setup(dependencies: readonly string[] = ["api"], managed: readonly string[] = []): this {
    this.emit({ kind: "RUN_STARTED", scenario_name: "test-scenario" });
    dependencies.forEach((dependency, index) => {
      const baseUrl = `http://127.0.0.1:${8001 + index}`;
      if (managed.includes(dependency)) {
        this.emit({ kind: "DEPENDENCY_STARTED", dependency, base_url: baseUrl, pid: 4242 + index });
        this.emit({ kind: "DEPENDENCY_READY", dependency, base_url: baseUrl, readiness_path: "/health" });
      }
      this.emit({
        kind: "INJECTOR_STARTED",
        dependency,
        proxy_url: `http://127.0.0.1:${9001 + index}`,
        upstream_url: baseUrl,
      });
    });
    return this.emit({ kind: "WORKLOAD_STARTED", name: "demo-agent", pid: 4343 });
  }

  observed(operationId: string, fingerprint: string, options: ObservedOptions = {}): this {
    const protocol = options.protocol ?? "http";
    this.#operations.set(operationId, {
      fingerprint,
      protocol,
      injected: false,
    });
    return this.emit({
      kind: "OPERATION_OBSERVED",
      operation_id: operationId,
      dependency: options.dependency ?? "api",
      protocol,
      method: options.method ?? (protocol === "mcp" ? "tools/call" : "GET"),
      path: options.path ?? (protocol === "mcp" ? "add_note" : "/customer/123"),
      query_hash: protocol === "mcp" ? null : EMPTY_HASH,
      body_hash: EMPTY_HASH,
      fingerprint,
      session: options.session === undefined ? (protocol === "mcp" ? 1 : null) : options.session,
      idempotency_key_hash: options.idempotencyKeyHash ?? null,
    });
  }

  retry(operationId: string, retryOf: string, attempt = 2): this {
    this.#retries.add(operationId);
    return this.emit({
      kind: "RETRY_OBSERVED",
      operation_id: operationId,
      retry_of_operation_id: retryOf,
      fingerprint: this.#operation(operationId).fingerprint,
      attempt,
    });
  }

  injected(
    operationId: string,
    faultId = "f1",
    faultType = "http_error",
    parameters: Record<string, number> = { status_code: 503 },
  ): this {
    this.#operation(operationId).injected = true;
    return this.emit({
      kind: "FAULT_INJECTED",
      operation_id: operationId,
      fault_id: faultId,
      fault_type: faultType,
      parameters,
    });
  }

  notApplied(operationId: string, faultId: string, reason: NotAppliedReason): this {
    return this.emit({ kind: "FAULT_NOT_APPLIED", operation_id: operationId, fault_id: faultId, reason });
  }

  /** OPERATION_FAILED; fault-related by default when the operation was injected or is a retry. */
  failed(operationId: string, failureKind: FailureKind, options: FailedOptions = {}): this {
    const operation = this.#operation(operationId);
    return this.emit({
      kind: "OPERATION_FAILED",
      operation_id: operationId,
      fingerprint: operation.fingerprint,
      failure_kind: failureKind,
      status_code:
        options.statusCode === undefined ? (DEFAULT_FAILURE_STATUS[failureKind] ?? null) : options.statusCode,
      fault_related: options.faultRelated ?? (operation.injected || this.#retries.has(operationId)),
      retry_after_ms: options.retryAfterMs ?? null,
      upstream_status: options.upstreamStatus ?? null,
      rpc_error_code: options.rpcErrorCode ?? null,
      relayed_events: options.relayedEvents ?? null,
    });
  }

  succeeded(operationId: string, options: SucceededOptions = {}): this {
    const operation = this.#operation(operationId);
    return this.emit({
      kind: "OPERATION_SUCCEEDED",
      operation_id: operationId,
      fingerprint: operation.fingerprint,
      status_code:
        options.statusCode === undefined ? (operation.protocol === "mcp" ? null : 200) : options.statusCode,
      duration_ms: options.durationMs ?? 3,
      fault_related: options.faultRelated ?? operation.injected,
      relayed_events: options.relayedEvents ?? null,
      closed_by_client: options.closedByClient ?? false,
    });
  }

  workloadCompleted(
    options: {
      exitCode?: number | null;
      timedOut?: boolean;
      interrupted?: boolean;
      error?: string | null;
    } = {},
  ): this {
    return this.emit({
      kind: "WORKLOAD_COMPLETED",
      exit_code: options.exitCode === undefined ? 0 : options.exitCode,
      timed_out: options.timedOut ?? false,
      interrupted: options.interrupted ?? false,
      duration_ms: this.#elapsed,
      error: options.error ?? null,
    });
  }

  dependencyStopped(dependency = "api", exitCode: number | null = -15): this {
    return this.emit({ kind: "DEPENDENCY_STOPPED", dependency, exit_code: exitCode });
  }

  runError(reasonCode: RunErrorReason, message: string): this {
    return this.emit({ kind: "RUN_ERROR", reason_code: reasonCode, message });
  }

  runCompleted(result: RunResult, reasonCode: string): this {
    return this.emit({
      kind: "RUN_COMPLETED",
      result,
      reason_code: reasonCode,
      duration_ms: this.#elapsed + 1,
    });
  }

  events(): AgentChaosEvent[] {
    return [...this.#events];
  }

  jsonl(): string {
    return this.#events.map((event) => `${JSON.stringify(event)}\n`).join("");
  }

  #operation(operationId: string): Operation {
    const operation = this.#operations.get(operationId);
    if (operation === undefined) throw new Error(`operation ${operationId} was not observed`);
    return operation;
  }
}

export function runBuilder(): RunBuilder {
  return new RunBuilder();
}
