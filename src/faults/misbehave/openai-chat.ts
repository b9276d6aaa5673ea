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
import type { SseMessage } from "./sse-messages.js";
import { writeMessage } from "./sse-messages.js";

/** The finish reason each kind ends the first choice with (none: left as it is). */
const FINISH: Readonly<Partial<Record<MisbehaveKind, string>>> = {
  empty: "stop",
  refusal: "stop",
  length_mid_tool: "length",
  content_filter: "content_filter",
};

/** The first choice (index 0) of a completion or a chunk; null when `choices` is not a list. */
function firstChoice(body: JsonObject): JsonObject | null | undefined {
  const choices = objectsOf(body.choices);
  if (choices === null) return null;
  return choices.find((choice) => (choice.index ?? 0) === 0);
}

/** A Chat Completions answer (`chat.completion`) rewritten; every kind acts on the first choice. */
export function rewriteChatJson(body: JsonObject, kind: MisbehaveKind): JsonObject | null {
  const choice = firstChoice(body);
  const message = choice === null || choice === undefined ? null : asObject(choice.message);
  if (choice == null || message === null || kind === "missing_finish") return null;
  if (TOOL_KINDS.has(kind)) {
    const calls = objectsOf(message.tool_calls);
    const call = calls?.[0];
    const fn = call === undefined ? null : asObject(call.function);
    if (calls === null || fn === null) return null;
    if (kind === "unknown_tool") fn.name = UNKNOWN_TOOL_NAME;
    else fn.arguments = cutArguments(typeof fn.arguments === "string" ? fn.arguments : "");
    if (kind === "length_mid_tool") message.tool_calls = [call];
  } else {
    message.content = kind === "refusal" ? null : "";
    if (kind === "refusal") message.refusal = REFUSAL_TEXT;
    delete message.tool_calls;
    delete message.function_call;
  }
  const finish = FINISH[kind];
  if (finish !== undefined) choice.finish_reason = finish;
  return body;
}

/** The fields of a chunk's delta that carry the answer. */
const ANSWER_FIELDS = ["content", "refusal", "tool_calls", "function_call"] as const;

/**
 * A Chat Completions stream (`chat.completion.chunk` events, then `data: [DONE]`) rewritten.
 * Holds only the first tool call's argument fragments, for the kinds that cut them.
 */
export class ChatStreamRewrite extends ProviderStreamRewrite {
  /** The chunk whose envelope (id, model, …) the cut arguments are sent in. */
  #envelope: JsonObject | null = null;
  /** length_mid_tool: the first tool call ended, the answer stops there. */
  #stopped = false;

  event(message: SseMessage): readonly Outgoing[] {
    if (this.state === "not_applicable" || message.data === null) return [message.raw];
    if (message.data.trim() === "[DONE]") return [...this.release(), message.raw];
    const chunk = dataObject(message);
    const choices = chunk === null ? null : objectsOf(chunk.choices);
    if (chunk === null || choices === null) return this.unshaped(message);
    const first = !this.shaped;
    this.markShaped();
    const choice = choices.find((candidate) => (candidate.index ?? 0) === 0);
    const before: Outgoing[] = [];
    let changed = false;
    if (this.kind === "missing_finish") {
      // The usage chunk (no choice) goes; every finish reason becomes null.
      if (choices.length === 0 && chunk.usage != null) return [];
      changed = this.#dropFinish(chunk, choice);
    } else if (choice !== undefined) {
      const delta = asObject(choice.delta);
      if (delta !== null) {
        if (TOOL_KINDS.has(this.kind)) changed = this.#toolDelta(delta, chunk, before);
        else if (CONTENT_KINDS.has(this.kind)) changed = this.#emptyDelta(delta, first);
      }
      if (choice.finish_reason != null) {
        before.push(...this.release());
        if (this.#applies()) {
          const finish = FINISH[this.kind];
          if (finish !== undefined && choice.finish_reason !== finish) {
            choice.finish_reason = finish;
            changed = true;
          }
        }
      }
    }
    if (!changed) return [...before, message.raw];
    if (!first && isHollow(chunk, choice)) return before;
    return [...before, writeMessage(message.event, chunk)];
  }

  /** Whether the kind acts on this answer's end (the tool kinds need a tool call). */
  #applies(): boolean {
    return !TOOL_KINDS.has(this.kind) || this.toolAt !== null;
  }

  #toolDelta(delta: JsonObject, chunk: JsonObject, before: Outgoing[]): boolean {
    let changed = false;
    if (this.#stopped) {
      for (const field of ANSWER_FIELDS) if (field in delta) changed = delete delta[field];
      return changed;
    }
    const calls = objectsOf(delta.tool_calls);
    if (calls === null) return false;
    for (const call of calls) {
      const index = typeof call.index === "number" ? call.index : 0;
      if (this.toolAt === null) {
        this.startToolCall(index);
        this.#envelope = chunk;
      }
      const fn = asObject(call.function);
      if (index === this.toolAt && fn !== null) {
        if (this.kind === "unknown_tool" && typeof fn.name === "string") {
          fn.name = UNKNOWN_TOOL_NAME;
          changed = true;
        } else if (this.held !== null && typeof fn.arguments === "string" && fn.arguments !== "") {
          this.held.push(fn.arguments);
          fn.arguments = "";
          changed = true;
        }
      } else if (index !== this.toolAt && this.held !== null) {
        // The first tool call ended: its cut arguments go out before the next one starts.
        before.push(...this.release());
      }
    }
    if (this.#stopped) {
      delta.tool_calls = calls.filter((call) => (call.index ?? 0) === this.toolAt);
      if ((delta.tool_calls as unknown[]).length === 0) delete delta.tool_calls;
      delete delta.content;
      changed = true;
    }
    return changed;
  }

  /** The held arguments, cut, as one chunk of the first tool call; nothing when none are held. */
  protected release(): Outgoing[] {
    const cut = this.takeHeld(null);
    if (cut === null || this.#envelope === null) return [];
    if (this.kind === "length_mid_tool") this.#stopped = true;
    const { choices: _choices, usage: _usage, ...envelope } = this.#envelope;
    const call = { index: this.toolAt, function: { arguments: cut } };
    const choice = { index: 0, delta: { tool_calls: [call] }, logprobs: null, finish_reason: null };
    return [writeMessage(null, { ...envelope, choices: [choice] })];
  }

  #emptyDelta(delta: JsonObject, first: boolean): boolean {
    let changed = false;
    for (const field of ANSWER_FIELDS) if (field in delta) changed = delete delta[field];
    if (first && this.kind === "refusal") {
      delta.content = null;
      delta.refusal = REFUSAL_TEXT;
      changed = true;
    }
    return changed;
  }

  #dropFinish(chunk: JsonObject, choice: JsonObject | undefined): boolean {
    let changed = false;
    if (choice !== undefined && choice.finish_reason != null) {
      choice.finish_reason = null;
      changed = true;
    }
    if (chunk.usage != null) {
      delete chunk.usage;
      changed = true;
    }
    return changed;
  }
}

/** A chunk left with nothing to say: no answer field, no finish reason, no usage. */
function isHollow(chunk: JsonObject, choice: JsonObject | undefined): boolean {
  if (chunk.usage != null) return false;
  const choices = objectsOf(chunk.choices) ?? [];
  if (choices.some((entry) => entry !== choice)) return false;
  if (choice === undefined) return true;
  if (choice.finish_reason != null) return false;
  const delta = asObject(choice.delta);
  return delta === null || ANSWER_FIELDS.every((field) => delta[field] == null);
}
