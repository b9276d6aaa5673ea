/** Event lines for reader tests: a run with every event type, and ways to break one event. */
import { expect } from "vitest";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import { EventsError } from "../../src/events/reader.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";

/** One event of every type, in a realistic order. */
export function everyTypeRun() {
  return legacyRunBuilder()
    .setup({ managedDependency: true })
    .observed("op-1", "fp-a")
    .injected("op-1", "http_error", { status_code: 503 })
    .failed("op-1", "injected_http_error")
    .observed("op-2", "fp-a")
    .retry("op-2", "op-1")
    .succeeded("op-2")
    .workloadCompleted({ exitCode: 0 })
    .dependencyStopped(-15)
    .runError("INTERNAL_ERROR", "internal error during workload: TypeError")
    .runCompleted("FAILED", "INTERNAL_ERROR");
}

export function eventOf(type: LegacyEvent["type"]): LegacyEvent {
  const event = everyTypeRun()
    .events()
    .find((e) => e.type === type);
  if (event === undefined) throw new Error(`no ${type} in the fixture`);
  return event;
}

/** An event as a plain JSON object that a test may break. */
interface Editable {
  [key: string]: unknown;
  payload: Record<string, unknown>;
}

/** The JSON line of an event after an edit of its (plain JSON) object. */
export function edited(type: LegacyEvent["type"], edit: (event: Editable) => void): string {
  const event = structuredClone(eventOf(type)) as unknown as Editable;
  edit(event);
  return JSON.stringify(event);
}

export function errorOf(action: () => unknown): EventsError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(EventsError);
    return error as EventsError;
  }
  throw new Error("expected an EventsError");
}
