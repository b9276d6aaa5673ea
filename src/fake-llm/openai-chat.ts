import type { LlmApi } from "./api.js";
import { CREATED } from "./api.js";
import { argumentPieces, type Reply, textPieces } from "./reply.js";
import { dataEvent, type SseEvent } from "./sse.js";
import { isObject, type JsonObject, messagesTurn, type Turn } from "./turn.js";

// OpenAI Chat Completions (`POST /v1/chat/completions`), public API shapes.

function readTurn(body: JsonObject): Turn | string {
  const messages = body.messages;
  if (!Array.isArray(messages)) return "messages: expected a list";
  const last = messages.at(-1);
  return messagesTurn(body, messages, isObject(last) && (last.role === "tool" || last.role === "function"));
}

function toolCallId(reply: Reply, index: number): string {
  return `call_fake_${reply.number}_${index + 1}`;
}

function usage(reply: Reply) {
  return {
    prompt_tokens: reply.inputTokens,
    completion_tokens: reply.outputTokens,
    total_tokens: reply.inputTokens + reply.outputTokens,
  };
}

function finishReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

function complete(reply: Reply) {
  const message: Record<string, unknown> = { role: "assistant", content: reply.text, refusal: null };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call, index) => ({
      id: toolCallId(reply, index),
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: `chatcmpl-fake-${reply.number}`,
    object: "chat.completion",
    created: CREATED,
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: usage(reply),
  };
}

/** `chat.completion.chunk` deltas: the role, the text, each tool call's name then arguments, the finish reason, `[DONE]`. */
function stream(reply: Reply, body: JsonObject): SseEvent[] {
  const chunk = (delta: unknown, finish: string | null) => ({
    id: `chatcmpl-fake-${reply.number}`,
    object: "chat.completion.chunk",
    created: CREATED,
    model: reply.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [
    chunk({ role: "assistant", content: reply.text === null ? null : "", refusal: null }, null),
  ];
  if (reply.text !== null) {
    for (const piece of textPieces(reply.text)) chunks.push(chunk({ content: piece }, null));
  }
  for (const [index, call] of reply.toolCalls.entries()) {
    const start = {
      index,
      id: toolCallId(reply, index),
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    chunks.push(chunk({ tool_calls: [start] }, null));
    for (const piece of argumentPieces(call.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null));
    }
  }
  chunks.push(chunk({}, finishReason(reply)));
  const options = body.stream_options;
  if (isObject(options) && options.include_usage === true) {
    chunks.push({ ...chunk({}, null), choices: [], usage: usage(reply) });
  }
  return [...chunks.map(dataEvent), dataEvent("[DONE]")];
}

export const openAiChat: LlmApi = {
  readTurn,
  complete,
  stream,
  error: (type, message) => ({ error: { message, type, param: null, code: null } }),
};
