import { describe, expect, it } from "vitest";
import { LEGACY_EVENT_COMPONENT, type LegacyEventType } from "../../src/events/legacy/types.js";
import { liftSchema1Event, SCHEMA_1_DEPENDENCY, SCHEMA_1_FAULT_ID } from "../../src/events/lift-schema-1.js";
import { PAYLOAD_FIELDS } from "../../src/events/payload-fields.js";
import { parseEventLine, parseLegacyEventLine } from "../../src/events/reader.js";
import { everyTypeRun } from "./event-fixtures.js";

const events = everyTypeRun().events();

function eventOf(type: LegacyEventType) {
  const event = events.find((candidate) => candidate.type === type);
  if (event === undefined) throw new Error(`no ${type} in the fixture`);
  return event;
}

describe("lifting a schema-1 event into the internal model", () => {
  it("gives a valid schema-2 event with the documented key order for every event type", () => {
    const types = new Set(events.map((event) => event.type));
    expect([...types].sort()).toEqual(Object.keys(LEGACY_EVENT_COMPONENT).sort());
    for (const [i, event] of events.entries()) {
      const lifted = liftSchema1Event(event);
      const line = JSON.stringify(lifted);
      expect(parseEventLine(line, i + 1), event.type).toEqual(lifted);
      expect(Object.keys(lifted.payload), event.type).toEqual([
        "kind",
        ...Object.keys(PAYLOAD_FIELDS[event.type as LegacyEventType] ?? {}),
      ]);
    }
  });

  it("keeps the envelope and every recorded value, and names the one dependency and the one fault", () => {
    for (const event of events) {
      const lifted = liftSchema1Event(event);
      expect({ ...lifted, schema_version: 1, payload: null }).toEqual({ ...event, payload: null });
      expect(lifted.payload).toMatchObject(event.payload);
      if ("dependency" in lifted.payload) expect(lifted.payload.dependency).toBe(SCHEMA_1_DEPENDENCY);
    }
    const injected = liftSchema1Event(eventOf("FAULT_INJECTED"));
    expect(injected.payload).toMatchObject({ fault_id: SCHEMA_1_FAULT_ID });
  });

  it("fills what schema 1 does not record with the values that mean not recorded", () => {
    const lift = (type: LegacyEventType) => liftSchema1Event(eventOf(type)).payload;
    expect(lift("OPERATION_OBSERVED")).toMatchObject({ session: null, idempotency_key_hash: null });
    expect(lift("OPERATION_FAILED")).toMatchObject({
      retry_after_ms: null,
      upstream_status: null,
      rpc_error_code: null,
      relayed_events: null,
    });
    expect(lift("OPERATION_SUCCEEDED")).toMatchObject({ relayed_events: null, closed_by_client: false });
  });

  it("leaves the schema-1 event as it was", () => {
    for (const [i, event] of events.entries()) {
      const before = JSON.stringify(event);
      liftSchema1Event(event);
      expect(JSON.stringify(event)).toBe(before);
      expect(parseLegacyEventLine(before, i + 1)).toEqual(event);
    }
  });
});
