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

/** The stop reason each kind ends the message with (none: left as it is). */
const STOP: Readonly<Partial<Record<MisbehaveKind, string>>> = {
  empty: "end_turn",
  refusal: "refusal",
  length_mid_tool: "max_tokens",
  content_filter: "refusal",
};

function refusalBlock(text: string): JsonObject {
  return { type: "text", text };
}

/**
 * An Anthropic Messages answer (`message` object) rewritten. A `tool_use` block's `input` is an
 * object in a JSON answer: the tool kinds that cut it make it the cut JSON text (a string).
 */
export function rewriteMessageJson(body: JsonObject, kind: MisbehaveKind): JsonObject | null {
  const content = objectsOf(body.content);
  if (body.type !== "message" || content === null || kind === "missing_finish") return null;
  if (TOOL_KINDS.has(kind)) {
    const at = content.findIndex((block) => block.type === "tool_use");
    const block = content[at];
    if (block === undefined) return null;
    if (kind === "unknown_tool") block.name = UNKNOWN_TOOL_NAME;
    else block.input = cutArguments(JSON.stringify(block.input ?? {}));
    if (kind === "length_mid_tool") body.content = content.slice(0, at + 1);
  } else {
    body.content = kind === "refusal" ? [refusalBlock(REFUSAL_TEXT)] : [];
  }
  const stop = STOP[kind];
  if (stop !== undefined) {
    body.stop_reason = stop;
    body.stop_sequence = null;
  }
  return body;
}

/**
 * An Anthropic Messages stream rewritten: content blocks dropped, added or cut, the stop reason
 * in `message_delta`, `message_stop` kept. Only the first `tool_use` block's `input_json_delta`
 * fragments are held (tool_args_invalid, length_mid_tool).
 */
export class MessagesStreamRewrite extends ProviderStreamRewrite {
  /** length_mid_tool: blocks after this index are dropped. */
  #stopAfter: number | null = null;
  /** refusal: its text block was sent. */
  #refused = false;

  event(message: SseMessage): readonly Outgoing[] {
    if (this.state === "not_applicable") return [message.raw];
    const data = dataObject(message);
    const type = data?.type;
    if (data === null || typeof type !== "string") return this.unshaped(message);
    if (!this.shaped && type !== "message_start") {
      if (type !== "ping") this.state = "not_applicable";
      return [message.raw];
    }
    this.markShaped();
    const write = () => writeMessage(message.event, data);
    if (type.startsWith("content_block_")) return this.#block(type, data, message.raw, write);
    if (type === "message_delta") {
      if (this.kind === "missing_finish") return [];
      const delta = asObject(data.delta);
      const stop = this.state === "applied" ? STOP[this.kind] : undefined;
      const before = this.kind === "refusal" ? this.#refusal() : [];
      if (delta === null || stop === undefined) return [...before, message.raw];
      delta.stop_reason = stop;
      delta.stop_sequence = null;
      return [...before, write()];
    }
    if (type === "message_stop" && this.kind === "refusal") return [...this.#refusal(), message.raw];
    if (type === "message_start" && this.kind === "missing_finish") {
      // The message says nothing about what it used: message_start's usage goes too.
      const started = asObject(data.message);
      if (started !== null && "usage" in started) {
        delete started.usage;
        return [write()];
      }
    }
    return [message.raw];
  }

  #block(type: string, data: JsonObject, raw: Buffer, write: () => string): readonly Outgoing[] {
    if (CONTENT_KINDS.has(this.kind)) return [];
    const index = typeof data.index === "number" ? data.index : null;
    if (index === null || !TOOL_KINDS.has(this.kind)) return [raw];
    if (this.#stopAfter !== null && index > this.#stopAfter) return [];
    const block = asObject(data.content_block);
    if (type === "content_block_start" && block?.type === "tool_use" && this.toolAt === null) {
      this.startToolCall(index);
      if (this.kind !== "unknown_tool") return [raw];
      block.name = UNKNOWN_TOOL_NAME;
      return [write()];
    }
    if (index !== this.toolAt || this.held === null) return [raw];
    const delta = asObject(data.delta);
    if (type === "content_block_delta" && delta?.type === "input_json_delta") {
      if (typeof delta.partial_json === "string") this.held.push(delta.partial_json);
      return [];
    }
    if (type === "content_block_stop") {
      if (this.kind === "length_mid_tool") this.#stopAfter = index;
      return [...this.release(), raw];
    }
    return [raw];
  }

  /** The held fragments, cut, as one `input_json_delta` of the first tool_use block. */
  protected release(): Outgoing[] {
    const delta = { type: "input_json_delta", partial_json: this.takeHeld(null) };
    return [writeMessage("content_block_delta", { type: "content_block_delta", index: this.toolAt, delta })];
  }

  /** The refusal's text block (index 0: every other block was dropped), once. */
  #refusal(): string[] {
    if (this.#refused) return [];
    this.#refused = true;
    const start = { type: "content_block_start", index: 0, content_block: refusalBlock("") };
    const delta = {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: REFUSAL_TEXT },
    };
    const stop = { type: "content_block_stop", index: 0 };
    return [
      writeMessage("content_block_start", start),
      writeMessage("content_block_delta", delta),
      writeMessage("content_block_stop", stop),
    ];
  }
}
