// Anthropic Messages response shapes for the fake LLM (public API format).

/** The non-streaming `message` object. */
export function anthropicMessage(answer) {
  return {
    id: `msg_${answer.digest}`,
    type: "message",
    role: "assistant",
    model: answer.model,
    content: [{ type: "text", text: answer.text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens },
  };
}

function event(name, data) {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

/** The SSE events of a streamed message, in the documented order. */
export function anthropicStreamEvents(answer) {
  const start = {
    ...anthropicMessage(answer),
    content: [],
    stop_reason: null,
    usage: { input_tokens: answer.inputTokens, output_tokens: 1 },
  };
  return [
    event("message_start", { message: start }),
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ...answer.pieces.map((text) =>
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
    ),
    event("content_block_stop", { index: 0 }),
    event("message_delta", {
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: answer.outputTokens },
    }),
    event("message_stop", {}),
  ];
}
