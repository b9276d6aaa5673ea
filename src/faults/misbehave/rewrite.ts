import type { MisbehaveKind } from "../../scenario/model-faults.js";
import type { SseMessage } from "./sse-messages.js";

/** Where a rewrite stands: it changed the answer, it cannot apply to it, or not known yet. */
export type Verdict = "pending" | "applied" | "not_applicable";

/** What goes to the workload in place of an upstream event: its own bytes, or a new event. */
export type Outgoing = Buffer | string;

/** A provider's rewrite of a JSON answer: the rewritten body, or null when the kind cannot apply. */
export type JsonRewrite = (body: JsonObject, kind: MisbehaveKind) => JsonObject | null;

export type JsonObject = Record<string, unknown>;

/** `value` as an object (not an array), or null. */
export function asObject(value: unknown): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

/** `value` as an array of objects (other entries skipped), or null when it is not an array. */
export function objectsOf(value: unknown): JsonObject[] | null {
  if (!Array.isArray(value)) return null;
  const objects: JsonObject[] = [];
  for (const entry of value) {
    const object = asObject(entry);
    if (object !== null) objects.push(object);
  }
  return objects;
}

/** The JSON object in an event's data, or null (no data, `[DONE]`, not JSON, not an object). */
export function dataObject(message: SseMessage): JsonObject | null {
  if (message.data === null) return null;
  try {
    return asObject(JSON.parse(message.data));
  } catch {
    return null;
  }
}

/** The kinds that act on the first tool call and cannot apply to an answer without one. */
export const TOOL_KINDS: ReadonlySet<MisbehaveKind> = new Set([
  "tool_args_invalid",
  "unknown_tool",
  "length_mid_tool",
]);

/** The kinds that replace the whole content. */
export const CONTENT_KINDS: ReadonlySet<MisbehaveKind> = new Set(["empty", "refusal", "content_filter"]);
