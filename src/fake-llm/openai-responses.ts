import type { LlmApi } from "./api.js";
import { CREATED } from "./api.js";
import { argumentPieces, type Reply, textPieces } from "./reply.js";
import { namedEvent, type SseEvent } from "./sse.js";
import { contentText, isObject, type JsonObject, lastText, modelOf, type Turn } from "./turn.js";

// The OpenAI Responses API (`POST /v1/responses`), public API shapes.

function readTurn(body: JsonObject): Turn | string {
  const input = body.input;
  const base = { model: modelOf(body), stream: body.stream === true };
  if (typeof input === "string") return { ...base, userText: input, toolResult: false };
  if (!Array.isArray(input)) return "input: expected a string or a list of items";
  const last = input.at(-1);
  const userText = lastText(input, (item) =>
    item.role === "user" && (item.type === undefined || item.type === "message")
      ? contentText(item.content, ["input_text"])
      : null,
  );
  return { ...base, userText, toolResult: isObject(last) && last.type === "function_call_output" };
}

const ids = {
  response: (reply: Reply) => `resp_fake_${reply.number}`,
  message: (reply: Reply) => `msg_fake_${reply.number}`,
  item: (reply: Reply, index: number) => `fc_fake_${reply.number}_${index + 1}`,
  call: (reply: Reply, index: number) => `call_fake_${reply.number}_${index + 1}`,
};

type Status = "in_progress" | "completed";

function textPart(text: string) {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

function messageItem(reply: Reply, status: Status, text: string | null) {
  return {
    id: ids.message(reply),
    type: "message",
    status,
    role: "assistant",
    content: text === null ? [] : [textPart(text)],
  };
}

function functionCallItem(reply: Reply, index: number, status: Status, args: string) {
  const call = reply.toolCalls[index];
  return {
    id: ids.item(reply, index),
    type: "function_call",
    status,
    call_id: ids.call(reply, index),
    name: call?.name ?? "",
    arguments: args,
  };
}

/** Every output item, completed: the message (when there is text), then one item per tool call. */
function outputItems(reply: Reply) {
  const items: unknown[] = reply.text === null ? [] : [messageItem(reply, "completed", reply.text)];
  for (const [index, call] of reply.toolCalls.entries()) {
    items.push(functionCallItem(reply, index, "completed", call.arguments));
  }
  return items;
}

function responseObject(reply: Reply, status: Status, output: unknown[]) {
  return {
    id: ids.response(reply),
    object: "response",
    created_at: CREATED,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: reply.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage:
      status === "completed"
        ? {
            input_tokens: reply.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: reply.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: reply.inputTokens + reply.outputTokens,
          }
        : null,
    user: null,
    metadata: {},
  };
}

/** The message item's events: added, its text part added, text deltas, text done, part done, item done. */
function messageEvents(reply: Reply, text: string, outputIndex: number): [string, object][] {
  const where = { item_id: ids.message(reply), output_index: outputIndex, content_index: 0 };
  return [
    [
      "response.output_item.added",
      { output_index: outputIndex, item: messageItem(reply, "in_progress", null) },
    ],
    ["response.content_part.added", { ...where, part: textPart("") }],
    ...textPieces(text).map((delta): [string, object] => [
      "response.output_text.delta",
      { ...where, delta, logprobs: [] },
    ]),
    ["response.output_text.done", { ...where, text, logprobs: [] }],
    ["response.content_part.done", { ...where, part: textPart(text) }],
    ["response.output_item.done", { output_index: outputIndex, item: messageItem(reply, "completed", text) }],
  ];
}

/** A function call item's events: added (empty arguments), argument deltas, arguments done, item done. */
function functionCallEvents(reply: Reply, index: number, outputIndex: number): [string, object][] {
  const args = reply.toolCalls[index]?.arguments ?? "";
  const where = { item_id: ids.item(reply, index), output_index: outputIndex };
  return [
    [
      "response.output_item.added",
      { output_index: outputIndex, item: functionCallItem(reply, index, "in_progress", "") },
    ],
    ...argumentPieces(args).map((delta): [string, object] => [
      "response.function_call_arguments.delta",
      { ...where, delta },
    ]),
    ["response.function_call_arguments.done", { ...where, arguments: args }],
    [
      "response.output_item.done",
      { output_index: outputIndex, item: functionCallItem(reply, index, "completed", args) },
    ],
  ];
}

function stream(reply: Reply): SseEvent[] {
  const events: [string, object][] = [
    ["response.created", { response: responseObject(reply, "in_progress", []) }],
    ["response.in_progress", { response: responseObject(reply, "in_progress", []) }],
  ];
  let outputIndex = 0;
  if (reply.text !== null) events.push(...messageEvents(reply, reply.text, outputIndex++));
  for (const index of reply.toolCalls.keys()) events.push(...functionCallEvents(reply, index, outputIndex++));
  events.push(["response.completed", { response: responseObject(reply, "completed", outputItems(reply)) }]);
  return events.map(([type, data], sequence) =>
    namedEvent(type, { type, sequence_number: sequence, ...data }),
  );
}

export const openAiResponses: LlmApi = {
  readTurn,
  complete: (reply) => responseObject(reply, "completed", outputItems(reply)),
  stream,
  error: (type, message) => ({ error: { message, type, param: null, code: null } }),
};
