/**
 * Builds realistic, valid event streams for tests: UUID event ids, increasing sequence,
 * elapsed time and timestamps, payload keys in the documented order (docs/events.md).
 *
 *   runBuilder().setup().observed("op-1", "fp-a").injected("op-1").failed("op-1", "injected_http_error")
 *     .observed("op-2", "fp-a").retry("op-2", "op-1").succeeded("op-2").workloadCompleted().events()
 */
import { randomUUID } from "node:crypto";
import {
  LEGACY_EVENT_COMPONENT,
  type LegacyEvent,
  type LegacyEventPayload,
  type LegacyFailureKind,
} from "../../src/events/legacy/types.js";
import type { RunErrorReason, RunResult } from "../../src/events/types.js";

const DEFAULT_FAILURE_STATUS: Partial<Record<LegacyFailureKind, number>> = {
  injected_http_error: 503,
  injected_rate_limit: 429,
  upstream_http_error: 500,
};

export interface LegacyRunBuilderOptions {
  readonly runId?: string;
  /** Wall-clock time of elapsed 0, ISO with Z. */
  readonly origin?: string;
  readonly scenarioName?: string;
}

export class LegacyRunBuilder {
  readonly runId: string;
  readonly #origin: number;
  readonly #scenarioName: string;
  readonly #events: LegacyEvent[] = [];
  readonly #fingerprints = new Map<string, string>();
  #elapsed = 0;
  #nextElapsed: number | null = null;

  constructor(options: LegacyRunBuilderOptions = {}) {
    this.runId = options.runId ?? "20261129T183821Z-1a2b3c4d";
    this.#origin = Date.parse(options.origin ?? "2026-11-29T18:38:21.000Z");
    this.#scenarioName = options.scenarioName ?? "test-scenario";
  }

  /** The next event gets this `elapsed_ms` (otherwise each event is 1 ms after the previous one). */
  at(elapsedMs: number): this {
    this.#nextElapsed = elapsedMs;
    return this;
  }

  /** Appends any payload; `envelope` overrides envelope fields (e.g. a duplicate `sequence`). */
  emit(payload: LegacyEventPayload, envelope: Partial<LegacyEvent> = {}): this {
    const previous = this.#events.at(-1);
    this.#elapsed = this.#nextElapsed ?? (previous === undefined ? 0 : this.#elapsed + 1);
    this.#nextElapsed = null;
    this.#events.push({
      schema_version: 1,
      event_id: randomUUID(),
      run_id: this.runId,
      sequence: (previous?.sequence ?? 0) + 1,
      timestamp: new Date(this.#origin + this.#elapsed).toISOString(),
      elapsed_ms: this.#elapsed,
      type: payload.kind,
      component: LEGACY_EVENT_COMPONENT[payload.kind],
      payload,
      ...envelope,
    });
    return this;
  }

  /** RUN_STARTED, (DEPENDENCY_STARTED, DEPENDENCY_READY), INJECTOR_STARTED, WORKLOAD_STARTED. */
  setup(options: { managedDependency?: boolean } = {}): this {
    this.emit({ kind: "RUN_STARTED", scenario_name: this.#scenarioName });
    if (options.managedDependency === true) {
      this.emit({ kind: "DEPENDENCY_STARTED", base_url: "http://127.0.0.1:8001", pid: 4242 });
      this.emit({ kind: "DEPENDENCY_READY", base_url: "http://127.0.0.1:8001", readiness_path: "/health" });
    }
    this.emit({
      kind: "INJECTOR_STARTED",
      proxy_url: "http://127.0.0.1:9001",
      upstream_url: "http://127.0.0.1:8001",
    });
    return this.emit({ kind: "WORKLOAD_STARTED", name: "demo-agent", pid: 4343 });
  }

  observed(operationId: string, fingerprint: string, request: { method?: string; path?: string } = {}): this {
    this.#fingerprints.set(operationId, fingerprint);
    return this.emit({
      kind: "OPERATION_OBSERVED",
      operation_id: operationId,
      protocol: "http",
      method: request.method ?? "GET",
      path: request.path ?? "/customer/123",
      query_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      body_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      fingerprint,
    });
  }

  /** RETRY_OBSERVED for `operationId` (fingerprint as observed, unless given). */
  retry(
    operationId: string,
    retryOf: string,
    options: { attempt?: number; fingerprint?: string } = {},
  ): this {
    return this.emit({
      kind: "RETRY_OBSERVED",
      operation_id: operationId,
      retry_of_operation_id: retryOf,
      fingerprint: options.fingerprint ?? this.#fingerprint(operationId),
      attempt: options.attempt ?? 2,
    });
  }

  injected(
    operationId: string,
    faultType = "http_error",
    parameters: Record<string, number> = { status_code: 503 },
  ): this {
    return this.emit({
      kind: "FAULT_INJECTED",
      operation_id: operationId,
      fault_type: faultType,
      parameters,
    });
  }

  /** OPERATION_FAILED; fault-related by default exactly for `injected_*` kinds. */
  failed(
    operationId: string,
    failureKind: LegacyFailureKind,
    options: { statusCode?: number | null; faultRelated?: boolean; fingerprint?: string } = {},
  ): this {
    return this.emit({
      kind: "OPERATION_FAILED",
      operation_id: operationId,
      fingerprint: options.fingerprint ?? this.#fingerprint(operationId),
      failure_kind: failureKind,
      status_code:
        options.statusCode === undefined ? (DEFAULT_FAILURE_STATUS[failureKind] ?? null) : options.statusCode,
      fault_related: options.faultRelated ?? failureKind.startsWith("injected_"),
    });
  }

  succeeded(
    operationId: string,
    options: { statusCode?: number; durationMs?: number; faultRelated?: boolean; fingerprint?: string } = {},
  ): this {
    return this.emit({
      kind: "OPERATION_SUCCEEDED",
      operation_id: operationId,
      fingerprint: options.fingerprint ?? this.#fingerprint(operationId),
      status_code: options.statusCode ?? 200,
      duration_ms: options.durationMs ?? 3,
      fault_related: options.faultRelated ?? false,
    });
  }

  workloadCompleted(
    options: {
      exitCode?: number | null;
      timedOut?: boolean;
      interrupted?: boolean;
      durationMs?: number;
      error?: string | null;
    } = {},
  ): this {
    return this.emit({
      kind: "WORKLOAD_COMPLETED",
      exit_code: options.exitCode === undefined ? 0 : options.exitCode,
      timed_out: options.timedOut ?? false,
      interrupted: options.interrupted ?? false,
      duration_ms: options.durationMs ?? this.#elapsed,
      error: options.error ?? null,
    });
  }

  dependencyStopped(exitCode: number | null = -15): this {
    return this.emit({ kind: "DEPENDENCY_STOPPED", exit_code: exitCode });
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

  /** A copy of the events built so far. */
  events(): LegacyEvent[] {
    return [...this.#events];
  }

  /** The events as events.jsonl text: one line each, every line ended by `\n`. */
  jsonl(): string {
    return this.#events.map((event) => `${JSON.stringify(event)}\n`).join("");
  }

  #fingerprint(operationId: string): string {
    const fingerprint = this.#fingerprints.get(operationId);
    if (fingerprint === undefined) throw new Error(`operation ${operationId} was not observed`);
    return fingerprint;
  }
}

export function legacyRunBuilder(options: LegacyRunBuilderOptions = {}): LegacyRunBuilder {
  return new LegacyRunBuilder(options);
}
