import type { LlmApi } from "./api.js";
import { argumentPieces, type Reply, textPieces } from "./reply.js";
import { namedEvent, type SseEvent } from "./sse.js";
import { isObject, type JsonObject, messagesTurn, type Turn } from "./turn.js";

// Anthropic Messages (`POST /v1/messages`), public API shapes.

function hasToolResult(message: unknown): boolean {
  return (
    isObject(message) &&
    message.role === "user" &&
    Array.isArray(message.content) &&
    message.content.some((block) => isObject(block) && block.type === "tool_result")
  );
}

function readTurn(body: JsonObject): Turn | string {
  const messages = body.messages;
  if (!Array.isArray(messages)) return "messages: Field required";
  return messagesTurn(body, messages, hasToolResult(messages.at(-1)));
}

function toolUseId(reply: Reply, index: number): string {
  return `toolu_fake_${reply.number}_${index + 1}`;
}

function stopReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
}

/** The content blocks: a text block when there is text, then one `tool_use` block per tool call. */
function contentBlocks(reply: Reply): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = reply.text === null ? [] : [{ type: "text", text: reply.text }];
  for (const [index, call] of reply.toolCalls.entries()) {
    blocks.push({ type: "tool_use", id: toolUseId(reply, index), name: call.name, input: call.input });
  }
  return blocks;
}

function message(reply: Reply) {
  return {
    id: `msg_fake_${reply.number}`,
    type: "message",
    role: "assistant",
    model: reply.model,
    content: contentBlocks(reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { input_tokens: reply.inputTokens, output_tokens: reply.outputTokens },
  };
}

/** message_start, then per block: start (a ping after the first), deltas, stop; message_delta, message_stop. */
function stream(reply: Reply): SseEvent[] {
  const start = {
    ...message(reply),
    content: [],
    stop_reason: null,
    usage: { input_tokens: reply.inputTokens, output_tokens: 1 },
  };
  const events: [string, object][] = [["message_start", { message: start }]];
  let index = 0;
  const block = (contentBlock: object, deltas: object[]) => {
    events.push(["content_block_start", { index, content_block: contentBlock }]);
    if (index === 0) events.push(["ping", {}]);
    for (const delta of deltas) events.push(["content_block_delta", { index, delta }]);
    events.push(["content_block_stop", { index }]);
    index += 1;
  };
  if (reply.text !== null) {
    block(
      { type: "text", text: "" },
      textPieces(reply.text).map((text) => ({ type: "text_delta", text })),
    );
  }
  for (const [callIndex, call] of reply.toolCalls.entries()) {
    block(
      { type: "tool_use", id: toolUseId(reply, callIndex), name: call.name, input: {} },
      argumentPieces(call.arguments).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    );
  }
  events.push([
    "message_delta",
    {
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: reply.outputTokens },
    },
  ]);
  events.push(["message_stop", {}]);
  return events.map(([type, data]) => namedEvent(type, { type, ...data }));
}

export const anthropicMessages: LlmApi = {
  readTurn,
  complete: message,
  stream,
  error: (type, text) => ({ type: "error", error: { type, message: text } }),
};
