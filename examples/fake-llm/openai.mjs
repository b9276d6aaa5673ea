// OpenAI Chat Completions response shapes for the fake LLM (public API format).

// A fixed timestamp keeps every answer byte-for-byte reproducible.
const CREATED = 1_700_000_000;

function usage(answer) {
  return {
    prompt_tokens: answer.inputTokens,
    completion_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

/** The non-streaming `chat.completion` object. */
export function openAiCompletion(answer) {
  return {
    id: `chatcmpl-${answer.digest}`,
    object: "chat.completion",
    created: CREATED,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: answer.text, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: usage(answer),
  };
}

/** The SSE events of a streamed completion, each `data: <chunk>` plus a blank line, ending in `[DONE]`. */
export function openAiChunks(answer, request) {
  const chunk = (delta, finishReason, extra = {}) => ({
    id: `chatcmpl-${answer.digest}`,
    object: "chat.completion.chunk",
    created: CREATED,
    model: answer.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  });
  const chunks = [
    chunk({ role: "assistant", content: "" }, null),
    ...answer.pieces.map((piece) => chunk({ content: piece }, null)),
    chunk({}, "stop"),
  ];
  if (request.stream_options?.include_usage === true) {
    chunks.push({ ...chunk({}, null), choices: [], usage: usage(answer) });
  }
  return [...chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`), "data: [DONE]\n\n"];
}
