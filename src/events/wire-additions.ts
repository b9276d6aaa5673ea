/**
 * The wire forms of the internal payloads for events schemas 2 and 3 (docs/events.md). The
 * internal FAULT_INJECTED may carry the corruption keys; schema 3 always writes them (null when
 * the fault is not a corruption), schema 2 never does.
 */
import type { EventPayload, FaultInjectedPayload } from "./types.js";

/** Schema 2: the payload as it is, without the keys only schema 3 has. */
export function toSchema2Payload(payload: EventPayload): EventPayload {
  if (payload.kind !== "FAULT_INJECTED" || (!("pointer" in payload) && !("canary_type" in payload)))
    return payload;
  const { pointer: _pointer, canary_type: _canaryType, ...rest } = payload;
  return rest;
}

/** Schema 3: FAULT_INJECTED with its keys in documented order, the corruption keys always present. */
export function toSchema3Payload(payload: EventPayload): EventPayload {
  if (payload.kind !== "FAULT_INJECTED") return payload;
  const faultInjected: FaultInjectedPayload = {
    kind: payload.kind,
    operation_id: payload.operation_id,
    fault_id: payload.fault_id,
    fault_type: payload.fault_type,
    parameters: payload.parameters,
    pointer: payload.pointer ?? null,
    canary_type: payload.canary_type ?? null,
  };
  return faultInjected;
}
