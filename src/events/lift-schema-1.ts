/**
 * A schema-1 event lifted into the internal (schema-2 shaped) model, so one analysis judges both
 * schemas. Pure. A schema-1 run has one dependency and at most one fault, which the internal
 * model names `SCHEMA_1_DEPENDENCY` and `SCHEMA_1_FAULT_ID`; every field schema 1 does not record
 * takes the value that means "not recorded" (`null`, `false`). Envelope and payload keys keep the
 * internal model's order. See docs/events.md.
 */
import {
  LEGACY_DEPENDENCY as SCHEMA_1_DEPENDENCY,
  LEGACY_FAULT_ID as SCHEMA_1_FAULT_ID,
} from "../scenario/legacy/upgrade.js";
import type { LegacyEvent, LegacyEventPayload } from "./legacy/types.js";
import type { AgentChaosEvent, EventPayload } from "./types.js";

/** The names the upgraded schema-1 scenario gives its one dependency and its one fault. */
export { SCHEMA_1_DEPENDENCY, SCHEMA_1_FAULT_ID };

function liftPayload(payload: LegacyEventPayload): EventPayload {
  const dependency = SCHEMA_1_DEPENDENCY;
  switch (payload.kind) {
    case "DEPENDENCY_STARTED":
      return { kind: payload.kind, dependency, base_url: payload.base_url, pid: payload.pid };
    case "DEPENDENCY_READY":
      return {
        kind: payload.kind,
        dependency,
        base_url: payload.base_url,
        readiness_path: payload.readiness_path,
      };
    case "INJECTOR_STARTED":
      return {
        kind: payload.kind,
        dependency,
        proxy_url: payload.proxy_url,
        upstream_url: payload.upstream_url,
      };
    case "OPERATION_OBSERVED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        dependency,
        protocol: payload.protocol,
        method: payload.method,
        path: payload.path,
        query_hash: payload.query_hash,
        body_hash: payload.body_hash,
        fingerprint: payload.fingerprint,
        session: null,
        idempotency_key_hash: null,
      };
    case "FAULT_INJECTED":
      return {
        kind: payload.kind,
        operation_id: payload.operation_id,
        fault_id: SCHEMA_1_FAULT_ID,
        fault_type: payload.fault_type,
        parameters: payload.parameters,
      };
    // Schema 2 appends its keys to these two payloads.
    case "OPERATION_FAILED":
      return {
        ...payload,
        retry_after_ms: null,
        upstream_status: null,
        rpc_error_code: null,
        relayed_events: null,
      };
    case "OPERATION_SUCCEEDED":
      return { ...payload, relayed_events: null, closed_by_client: false };
    case "DEPENDENCY_STOPPED":
      return { kind: payload.kind, dependency, exit_code: payload.exit_code };
    default:
      // RUN_STARTED, WORKLOAD_STARTED, RETRY_OBSERVED, WORKLOAD_COMPLETED, RUN_ERROR and
      // RUN_COMPLETED have the same payload in both schemas.
      return payload;
  }
}

/** The internal-model event of a schema-1 event (the input is not modified). */
export function liftSchema1Event(event: LegacyEvent): AgentChaosEvent {
  // The envelope is schema 1's: spreading it keeps every key in its place.
  return { ...event, schema_version: 2, payload: liftPayload(event.payload) };
}
