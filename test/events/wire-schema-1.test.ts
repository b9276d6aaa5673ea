import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import { liftSchema1Event } from "../../src/events/lift-schema-1.js";
import type { EventPayload } from "../../src/events/types.js";
import { toSchema1Payload } from "../../src/events/wire-schema-1.js";

const GOLDEN = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/golden");

/** The runtime's events that name their dependency internally. */
const NAMED = new Set(["DEPENDENCY_STARTED", "DEPENDENCY_READY", "INJECTOR_STARTED", "DEPENDENCY_STOPPED"]);

/** Every payload of the schema-1 golden event files, in file order. */
function goldenPayloads(): Record<string, unknown>[] {
  return readdirSync(GOLDEN)
    .filter((name) => name.endsWith(".events.jsonl"))
    .flatMap((name) =>
      readFileSync(join(GOLDEN, name), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload),
    );
}

/** The internal event the runtime emits for a schema-1 payload: the dependency `api` named after `kind`. */
function internalOf(payload: Record<string, unknown>): EventPayload {
  if (!NAMED.has(payload.kind as string)) return payload as unknown as EventPayload;
  const { kind, ...rest } = payload;
  return { kind, dependency: "api", ...rest } as unknown as EventPayload;
}

describe("toSchema1Payload", () => {
  const payloads = goldenPayloads();
  const kinds = [...new Set(payloads.map((payload) => payload.kind as string))].sort();

  it("covers every event type of the golden runs", () => {
    expect(kinds).toEqual(
      expect.arrayContaining([
        "DEPENDENCY_STOPPED",
        "FAULT_INJECTED",
        "INJECTOR_STARTED",
        "OPERATION_FAILED",
        "OPERATION_OBSERVED",
        "OPERATION_SUCCEEDED",
        "RUN_COMPLETED",
        "RUN_STARTED",
        "WORKLOAD_COMPLETED",
        "WORKLOAD_STARTED",
      ]),
    );
  });

  it.each(kinds)("writes %s byte for byte as the golden file does", (kind) => {
    for (const payload of payloads.filter((entry) => entry.kind === kind)) {
      expect(JSON.stringify(toSchema1Payload(internalOf(payload)))).toBe(JSON.stringify(payload));
    }
  });

  it("drops the dependency name of the runtime's events, keeping every other key in place", () => {
    const internal: EventPayload[] = [
      { kind: "DEPENDENCY_STARTED", dependency: "api", base_url: "http://127.0.0.1:1/v1", pid: 7 },
      {
        kind: "DEPENDENCY_READY",
        dependency: "api",
        base_url: "http://127.0.0.1:1/v1",
        readiness_path: "/health",
      },
      {
        kind: "INJECTOR_STARTED",
        dependency: "api",
        proxy_url: "http://127.0.0.1:2",
        upstream_url: "http://127.0.0.1:1/v1",
      },
      { kind: "DEPENDENCY_STOPPED", dependency: "api", exit_code: 0 },
    ];
    expect(internal.map((payload) => JSON.stringify(toSchema1Payload(payload)))).toEqual([
      '{"kind":"DEPENDENCY_STARTED","base_url":"http://127.0.0.1:1/v1","pid":7}',
      '{"kind":"DEPENDENCY_READY","base_url":"http://127.0.0.1:1/v1","readiness_path":"/health"}',
      '{"kind":"INJECTOR_STARTED","proxy_url":"http://127.0.0.1:2","upstream_url":"http://127.0.0.1:1/v1"}',
      '{"kind":"DEPENDENCY_STOPPED","exit_code":0}',
    ]);
  });

  it("writes the internal event the proxy and the runtime record for each golden payload byte for byte", () => {
    const events = readdirSync(GOLDEN)
      .filter((name) => name.endsWith(".events.jsonl"))
      .flatMap((name) =>
        readFileSync(join(GOLDEN, name), "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as LegacyEvent),
      );
    expect(events.length).toBeGreaterThan(100);
    for (const event of events) {
      const internal = liftSchema1Event(event).payload;
      expect(JSON.stringify(toSchema1Payload(internal))).toBe(JSON.stringify(event.payload));
    }
  });

  it("drops every key schema 1 does not have from the operation events", () => {
    const internal: EventPayload[] = [
      {
        kind: "OPERATION_OBSERVED",
        operation_id: "op",
        dependency: "api",
        protocol: "http",
        method: "POST",
        path: "/v1/chat",
        query_hash: "q",
        body_hash: "b",
        fingerprint: "f",
        session: null,
        idempotency_key_hash: "k",
      },
      {
        kind: "FAULT_INJECTED",
        operation_id: "op",
        fault_id: "fault",
        fault_type: "http_error",
        parameters: { status_code: 503 },
      },
      {
        kind: "OPERATION_SUCCEEDED",
        operation_id: "op",
        fingerprint: "f",
        status_code: 200,
        duration_ms: 4,
        fault_related: true,
        relayed_events: 3,
        closed_by_client: false,
      },
      {
        kind: "OPERATION_FAILED",
        operation_id: "op",
        fingerprint: "f",
        failure_kind: "injected_http_error",
        status_code: 503,
        fault_related: true,
        retry_after_ms: 1000,
        upstream_status: null,
        rpc_error_code: null,
        relayed_events: null,
      },
    ];
    expect(internal.map((payload) => JSON.stringify(toSchema1Payload(payload)))).toEqual([
      '{"kind":"OPERATION_OBSERVED","operation_id":"op","protocol":"http","method":"POST","path":"/v1/chat","query_hash":"q","body_hash":"b","fingerprint":"f"}',
      '{"kind":"FAULT_INJECTED","operation_id":"op","fault_type":"http_error","parameters":{"status_code":503}}',
      '{"kind":"OPERATION_SUCCEEDED","operation_id":"op","fingerprint":"f","status_code":200,"duration_ms":4,"fault_related":true}',
      '{"kind":"OPERATION_FAILED","operation_id":"op","fingerprint":"f","failure_kind":"injected_http_error","status_code":503,"fault_related":true}',
    ]);
  });

  it("has no schema-1 form for the events schema 1 does not have", () => {
    const none: EventPayload[] = [
      { kind: "FAULT_NOT_APPLIED", operation_id: "op", fault_id: "fault", reason: "another_fault_acted" },
      { kind: "SESSION_STARTED", dependency: "tools", session: 1, pid: 9 },
    ];
    for (const payload of none) expect(toSchema1Payload(payload)).toBeNull();
  });
});
