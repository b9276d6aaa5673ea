import { describe, expect, it } from "vitest";
import { type EventsError, parseLegacyEventLine } from "../../src/events/reader.js";
import { AgentChaosError } from "../../src/support/errors.js";
import { edited, errorOf, eventOf, everyTypeRun } from "./event-fixtures.js";

function expectInvalid(line: string, keyPath: string, lineNumber = 7): EventsError {
  const error = errorOf(() => parseLegacyEventLine(line, lineNumber));
  expect(error).toBeInstanceOf(AgentChaosError);
  expect({ code: error.code, line: error.line, keyPath: error.keyPath }).toEqual({
    code: "EVENTS_INVALID",
    line: lineNumber,
    keyPath,
  });
  expect(error.message).toContain(`line ${lineNumber}`);
  return error;
}

describe("parseEventLine", () => {
  it("accepts every event type and returns the event unchanged", () => {
    const events = everyTypeRun().events();
    expect(new Set(events.map((e) => e.type)).size).toBe(14);
    for (const [index, event] of events.entries()) {
      expect(parseLegacyEventLine(JSON.stringify(event), index + 1)).toEqual(event);
    }
  });

  it("accepts null where docs/events.md allows it", () => {
    const failed = edited("OPERATION_FAILED", (e) => {
      e.payload.status_code = null;
    });
    const completed = edited("WORKLOAD_COMPLETED", (e) => {
      e.payload.exit_code = null;
      e.payload.error = "process exceeded 10 second timeout";
    });
    const stopped = edited("DEPENDENCY_STOPPED", (e) => {
      e.payload.exit_code = null;
    });
    for (const line of [failed, completed, stopped])
      expect(() => parseLegacyEventLine(line, 1)).not.toThrow();
  });

  it("accepts the extension failure kind upstream_stream_interrupted", () => {
    const line = edited("OPERATION_FAILED", (e) => {
      e.payload.failure_kind = "upstream_stream_interrupted";
    });
    expect(parseLegacyEventLine(line, 1).payload).toMatchObject({
      failure_kind: "upstream_stream_interrupted",
    });
  });

  it("accepts strings that merely look like non-integer numbers", () => {
    const line = edited("OPERATION_OBSERVED", (e) => {
      e.payload.path = '/items/1,2.5/"x":3e4';
    });
    expect(parseLegacyEventLine(line, 1).payload).toMatchObject({ path: '/items/1,2.5/"x":3e4' });
  });

  it("rejects an unknown envelope key", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => Object.assign(e, { extra: 1 })),
      "extra",
    );
  });

  it("does not repeat an unknown key that is not a plain identifier", () => {
    const error = expectInvalid(
      edited("RUN_STARTED", (e) => Object.assign(e.payload, { "Bearer sk-live-0123": 1 })),
      "payload.<non-identifier key>",
    );
    expect(error.message).not.toContain("sk-live");
  });

  it("rejects an unknown payload key", () => {
    expectInvalid(
      edited("OPERATION_FAILED", (e) => Object.assign(e.payload, { body: "x" })),
      "payload.body",
    );
  });

  it("rejects a missing envelope key", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => delete e.elapsed_ms),
      "elapsed_ms",
    );
  });

  it("rejects a missing payload key", () => {
    expectInvalid(
      edited("OPERATION_SUCCEEDED", (e) => delete e.payload.duration_ms),
      "payload.duration_ms",
    );
  });

  it("rejects a payload kind that differs from the type", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.payload.kind = "RUN_COMPLETED")),
      "payload.kind",
    );
  });

  it("rejects a missing payload kind", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => delete e.payload.kind),
      "payload.kind",
    );
  });

  it("rejects a component that is not the one of the type", () => {
    expectInvalid(
      edited("OPERATION_OBSERVED", (e) => (e.component = "orchestrator")),
      "component",
    );
  });

  it("rejects an unknown component and an unknown type", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.component = "agent")),
      "component",
    );
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.type = "RUN_PAUSED")),
      "type",
    );
  });

  it("rejects a string where an integer is required", () => {
    expectInvalid(
      edited("WORKLOAD_STARTED", (e) => (e.payload.pid = "4343")),
      "payload.pid",
    );
  });

  it("rejects a sequence written as a float even when its value is whole", () => {
    const line = JSON.stringify(eventOf("RUN_STARTED")).replace('"sequence":1,', '"sequence":1.0,');
    expect(line).toContain('"sequence":1.0,');
    expectInvalid(line, "sequence");
  });

  it("rejects integers written with an exponent or a fraction inside the payload", () => {
    const elapsed = JSON.stringify(eventOf("RUN_STARTED")).replace('"elapsed_ms":0,', '"elapsed_ms":0e0,');
    expectInvalid(elapsed, "elapsed_ms");
    const params = JSON.stringify(eventOf("FAULT_INJECTED")).replace(
      '"status_code":503',
      '"status_code":503.0',
    );
    expectInvalid(params, "payload.parameters");
  });

  it("rejects a zero sequence, a negative elapsed time and a negative duration", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.sequence = 0)),
      "sequence",
    );
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.elapsed_ms = -1)),
      "elapsed_ms",
    );
    expectInvalid(
      edited("RUN_COMPLETED", (e) => (e.payload.duration_ms = -5)),
      "payload.duration_ms",
    );
  });

  it("rejects an unknown failure kind", () => {
    expectInvalid(
      edited("OPERATION_FAILED", (e) => (e.payload.failure_kind = "timeout")),
      "payload.failure_kind",
    );
  });

  it("rejects a RUN_ERROR reason and a RUN_COMPLETED result outside their sets", () => {
    expectInvalid(
      edited("RUN_ERROR", (e) => (e.payload.reason_code = "OOPS")),
      "payload.reason_code",
    );
    expectInvalid(
      edited("RUN_COMPLETED", (e) => (e.payload.result = "SKIPPED")),
      "payload.result",
    );
  });

  it("rejects null where docs/events.md does not allow it", () => {
    expectInvalid(
      edited("OPERATION_SUCCEEDED", (e) => (e.payload.status_code = null)),
      "payload.status_code",
    );
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.payload.scenario_name = null)),
      "payload.scenario_name",
    );
  });

  it("rejects a protocol other than http and a boolean written as a string", () => {
    expectInvalid(
      edited("OPERATION_OBSERVED", (e) => (e.payload.protocol = "grpc")),
      "payload.protocol",
    );
    expectInvalid(
      edited("OPERATION_FAILED", (e) => (e.payload.fault_related = "true")),
      "payload.fault_related",
    );
  });

  it("rejects timestamps that are not UTC with Z, and invalid dates", () => {
    for (const timestamp of [
      "2026-11-29T18:38:21.123+00:00",
      "2026-11-29 18:38:21Z",
      "2026-02-30T00:00:00Z",
    ]) {
      expectInvalid(
        edited("RUN_STARTED", (e) => (e.timestamp = timestamp)),
        "timestamp",
      );
    }
    expect(() =>
      parseLegacyEventLine(
        edited("RUN_STARTED", (e) => (e.timestamp = "2026-11-29T18:38:21Z")),
        1,
      ),
    ).not.toThrow();
  });

  it("rejects an event id that is not a UUID and an unsupported schema version", () => {
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.event_id = "event-1")),
      "event_id",
    );
    expectInvalid(
      edited("RUN_STARTED", (e) => (e.schema_version = 2)),
      "schema_version",
    );
  });

  it("rejects a line that is not JSON, not an object, or has a non-object payload", () => {
    expectInvalid('{"schema_version":1,', "");
    expectInvalid("[1,2]", "");
    expectInvalid("", "");
    expectInvalid(
      edited("RUN_STARTED", (e) => Object.assign(e, { payload: ["RUN_STARTED"] })),
      "payload",
    );
  });

  it("never puts values from the line into the error message", () => {
    const secret = "Bearer sk-live-0123456789";
    const error = expectInvalid(
      edited("WORKLOAD_STARTED", (e) => (e.payload.name = { token: secret })),
      "payload.name",
    );
    expect(error.message).not.toContain("sk-live");
    const notJson = errorOf(() => parseLegacyEventLine(`{"authorization": "${secret}"`, 3));
    expect(notJson.message).not.toContain("sk-live");
    expect(notJson.cause).toBeUndefined();
  });
});
