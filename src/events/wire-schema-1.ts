import type { LegacyEventPayload, LegacyFailureKind } from "./legacy/types.js";
import type { EventPayload } from "./types.js";

/** The events schema 1 has that keep their internal form as they are. */
const SAME_IN_SCHEMA_1: ReadonlySet<string> = new Set([
  "RUN_STARTED",
  "WORKLOAD_STARTED",
  "RETRY_OBSERVED",
  "WORKLOAD_COMPLETED",
  "RUN_ERROR",
  "RUN_COMPLETED",
]);

/**
 * An internal (schema-2) payload in the form events schema 1 writes it, or null for an event
 * schema 1 does not have (it is not written). A schema-1 run has one unnamed dependency and one
 * fault without an id: the dependency name, the fault id and every key schema 1 does not record
 * are dropped, the other keys keep their place; an operation without a status (never one of an
 * http dependency) succeeds with status 0. Pure; a payload already in schema-1 form gives itself.
 * See docs/events.md.
 */
export function toSchema1Payload(payload: LegacyEventPayload | EventPayload): LegacyEventPayload | null {
  switch (payload.kind) {
    case "DEPENDENCY_STARTED":
    case "DEPENDENCY_READY":
    case "INJECTOR_STARTED":
    case "DEPENDENCY_STOPPED": {
      if (!("dependency" in payload)) return payload;
      const { dependency: _dependency, ...rest } = payload;
      return rest as LegacyEventPayload;
    }
    case "OPERATION_OBSERVED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        protocol: "http",
        method: payload.method,
        path: payload.path,
        query_hash: payload.query_hash ?? "",
        body_hash: payload.body_hash,
        fingerprint: payload.fingerprint,
      };
    case "FAULT_INJECTED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        fault_type: payload.fault_type,
        // Schema-1 faults carry integers only.
        parameters: { ...payload.parameters } as Record<string, number>,
      };
    case "OPERATION_SUCCEEDED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        fingerprint: payload.fingerprint,
        status_code: payload.status_code ?? 0,
        duration_ms: payload.duration_ms,
        fault_related: payload.fault_related,
      };
    case "OPERATION_FAILED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        fingerprint: payload.fingerprint,
        failure_kind: payload.failure_kind as LegacyFailureKind,
        status_code: payload.status_code,
        fault_related: payload.fault_related,
      };
    default:
      return SAME_IN_SCHEMA_1.has(payload.kind) ? (payload as LegacyEventPayload) : null;
  }
}
