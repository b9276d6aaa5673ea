import type { MisbehaveKind } from "../../scenario/model-faults.js";
import { cutArguments, REFUSAL_TEXT, UNKNOWN_TOOL_NAME } from "./answer-text.js";
import { ProviderStreamRewrite } from "./provider-stream-rewrite.js";
import {
  asObject,
  CONTENT_KINDS,
  dataObject,
  type JsonObject,
  type Outgoing,
  objectsOf,
  TOOL_KINDS,
} from "./rewrite.js";
import { type SseMessage, writeMessage } from "./sse-messages.js";

const REFUSAL_ITEM_ID = "msg_agentchaos_refusal";

/** Items that carry the answer: what `empty`, `refusal` and `content_filter` remove. */
function isAnswerItem(item: JsonObject | null): boolean {
  return item?.type === "message" || item?.type === "function_call";
}

function refusalItem(status: "in_progress" | "completed"): JsonObject {
  const content = status === "completed" ? [{ type: "refusal", refusal: REFUSAL_TEXT }] : [];
  return { id: REFUSAL_ITEM_ID, type: "message", status, role: "assistant", content };
}

/**
 * A Responses API answer (`response` object) rewritten: tool kinds act on the first
 * `function_call` item, content kinds replace the message and function call items.
 */
export function rewriteResponsesJson(body: JsonObject, kind: MisbehaveKind): JsonObject | null {
  const output = objectsOf(body.output);
  if (output === null || kind === "missing_finish") return null;
  if (TOOL_KINDS.has(kind)) {
    const at = output.findIndex((item) => item.type === "function_call");
    const call = output[at];
    if (call === undefined) return null;
    if (kind === "unknown_tool") call.name = UNKNOWN_TOOL_NAME;
    else call.arguments = cutArguments(typeof call.arguments === "string" ? call.arguments : "");
    if (kind === "length_mid_tool") {
      call.status = "incomplete";
      body.output = output.slice(0, at + 1);
      body.status = "incomplete";
      body.incomplete_details = { reason: "max_output_tokens" };
    }
    return body;
  }
  const kept = output.filter((item) => !isAnswerItem(item));
  if (kind === "refusal") kept.push(refusalItem("completed"));
  body.output = kept;
  const filtered = kind === "content_filter";
  body.status = filtered ? "incomplete" : "completed";
  body.incomplete_details = filtered ? { reason: "content_filter" } : null;
  return body;
}

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** One event on its way out: its own bytes when nothing changed, else its data rewritten. */
interface Pending {
  readonly raw: Buffer | null;
  readonly event: string | null;
  readonly data: JsonObject;
}

/**
 * A Responses API stream rewritten. Dropped and added events keep `sequence_number` counting up
 * by one and `output_index` naming the items that remain; only the first function call's
 * argument deltas are held (tool_args_invalid, length_mid_tool).
 */
export class ResponsesStreamRewrite extends ProviderStreamRewrite {
  #nextSequence: number | null = null;
  /** Original output index → the one sent (content kinds drop items). */
  readonly #indices = new Map<number, number>();
  readonly #dropped = new Set<number>();
  #kept = 0;
  /** The first function call item's id. */
  #callId: unknown = null;
  /** length_mid_tool: items after this output index are dropped. */
  #stopAfter: number | null = null;

  event(message: SseMessage): readonly Outgoing[] {
    if (this.state === "not_applicable") return [message.raw];
    const data = dataObject(message);
    const type = data?.type;
    if (data === null || typeof type !== "string" || !type.startsWith("response."))
      return this.unshaped(message);
    this.markShaped();
    return this.#send(this.#rewrite(message, type, data));
  }

  protected release(full: string | null): Outgoing[] {
    return this.#send(this.#released(full));
  }

  #rewrite(message: SseMessage, type: string, data: JsonObject): Pending[] {
    const same: Pending = { raw: message.raw, event: message.event, data };
    const changed: Pending = { raw: null, event: message.event, data };
    const index = typeof data.output_index === "number" ? data.output_index : null;
    if (type === "response.output_item.added" && index !== null) {
      const item = asObject(data.item);
      if (CONTENT_KINDS.has(this.kind) && isAnswerItem(item)) this.#dropped.add(index);
      if (this.#stopAfter !== null && index > this.#stopAfter) this.#dropped.add(index);
      if (!this.#dropped.has(index)) this.#indices.set(index, this.#kept++);
      if (TOOL_KINDS.has(this.kind) && item?.type === "function_call" && this.toolAt === null) {
        this.#callId = item.id;
        this.startToolCall(index);
      }
    }
    if (index !== null && this.#dropped.has(index)) return [];
    if (TERMINAL.has(type)) return this.#terminal(message, type, data);
    let result = [same];
    if (this.toolAt !== null && index === this.toolAt) result = this.#callEvent(type, data, same, changed);
    if (index !== null && CONTENT_KINDS.has(this.kind)) {
      const sent = this.#indices.get(index) ?? index;
      if (sent !== index) {
        data.output_index = sent;
        return result.map((pending) => (pending.raw === null ? pending : changed));
      }
    }
    return result;
  }

  /** An event of the first function call item. */
  #callEvent(type: string, data: JsonObject, same: Pending, changed: Pending): Pending[] {
    const item = asObject(data.item);
    if (this.kind === "unknown_tool") {
      const named = item ?? (type === "response.function_call_arguments.done" ? data : null);
      if (named === null || typeof named.name !== "string") return [same];
      named.name = UNKNOWN_TOOL_NAME;
      return [changed];
    }
    if (type === "response.function_call_arguments.delta" && this.held !== null) {
      if (typeof data.delta === "string") this.held.push(data.delta);
      return [];
    }
    if (type === "response.function_call_arguments.done") {
      const full = typeof data.arguments === "string" ? data.arguments : null;
      const released = this.#released(full);
      data.arguments = cutArguments(full ?? "");
      return [...released, changed];
    }
    if (type === "response.output_item.done" && item !== null) {
      item.arguments = cutArguments(typeof item.arguments === "string" ? item.arguments : "");
      if (this.kind === "length_mid_tool") {
        item.status = "incomplete";
        this.#stopAfter = this.toolAt;
      }
      return [changed];
    }
    return [same];
  }

  /** The held argument deltas as one delta of the cut arguments (`full` when the stream said them). */
  #released(full: string | null): Pending[] {
    const delta = this.takeHeld(full);
    if (delta === null) return [];
    const type = "response.function_call_arguments.delta";
    const data = { type, sequence_number: 0, item_id: this.#callId, output_index: this.toolAt, delta };
    return [{ raw: null, event: type, data }];
  }

  #terminal(message: SseMessage, type: string, data: JsonObject): Pending[] {
    const response = asObject(data.response);
    if (response === null) return [{ raw: message.raw, event: message.event, data }];
    const before: Pending[] = [];
    if (this.kind === "missing_finish") {
      // Whatever the upstream's terminal event, the stream ends as a clean response.completed
      // that says nothing about how the answer finished.
      delete response.status;
      delete response.usage;
      if (response.incomplete_details != null) response.incomplete_details = null;
    } else if (this.state === "applied") {
      rewriteResponsesJson(response, this.kind);
      if (this.kind === "refusal") before.push(...refusalEvents(this.#kept));
    }
    let name = type;
    if (this.kind === "missing_finish") name = "response.completed";
    else if (response.status === "incomplete") name = "response.incomplete";
    else if (response.status === "completed" && type === "response.incomplete") name = "response.completed";
    data.type = name;
    const event = message.event === null ? null : name;
    return [...before, { raw: null, event, data }];
  }

  /** Sends the events in order, numbering them on from the first upstream `sequence_number`. */
  #send(events: Pending[]): Outgoing[] {
    return events.map((pending) => {
      const { data } = pending;
      let raw = pending.raw;
      if (typeof data.sequence_number === "number") {
        this.#nextSequence ??= data.sequence_number;
        if (data.sequence_number !== this.#nextSequence) {
          data.sequence_number = this.#nextSequence;
          raw = null;
        }
        this.#nextSequence += 1;
      }
      return raw ?? writeMessage(pending.event, data);
    });
  }
}

/** The events of the refusal message item, sent at `index`. */
function refusalEvents(index: number): Pending[] {
  const where = { item_id: REFUSAL_ITEM_ID, output_index: index, content_index: 0 };
  const events: [string, JsonObject][] = [
    ["response.output_item.added", { output_index: index, item: refusalItem("in_progress") }],
    ["response.content_part.added", { ...where, part: { type: "refusal", refusal: "" } }],
    ["response.refusal.delta", { ...where, delta: REFUSAL_TEXT }],
    ["response.refusal.done", { ...where, refusal: REFUSAL_TEXT }],
    ["response.content_part.done", { ...where, part: { type: "refusal", refusal: REFUSAL_TEXT } }],
    ["response.output_item.done", { output_index: index, item: refusalItem("completed") }],
  ];
  return events.map(([type, data]) => ({
    raw: null,
    event: type,
    data: { type, sequence_number: 0, ...data },
  }));
}
