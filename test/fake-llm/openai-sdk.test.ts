import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { closeFakeLlmsAfterEach, startFakeLlm, WEATHER_QUESTION, WEATHER_SCRIPT } from "./helpers.js";

closeFakeLlmsAfterEach();

const QUESTION = "Say hello to Agent Chaos";
const ANSWER = `Echo: ${QUESTION}`;
const PARAMETERS = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

function client(url: string): OpenAI {
  return new OpenAI({
    baseURL: `${url}/v1`,
    apiKey: "sk-test",
    maxRetries: 0,
    organization: null,
    project: null,
  });
}

describe("the official openai client against the fake model: Chat Completions", () => {
  it("gets the answer of a plain completion", async () => {
    const openai = client((await startFakeLlm()).url);
    const completion = await openai.chat.completions.create({
      model: "fake-gpt",
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(completion.choices[0]?.message.content).toBe(ANSWER);
  });

  it("gets the answer of a streamed completion in pieces", async () => {
    const openai = client((await startFakeLlm()).url);
    const stream = await openai.chat.completions.create({
      model: "fake-gpt",
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (piece) pieces.push(piece);
    }
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(ANSWER);
  });

  it("does a tool round trip, the tool call assembled from a stream", async () => {
    const openai = client((await startFakeLlm({ script: WEATHER_SCRIPT })).url);
    const tools: ChatCompletionTool[] = [
      { type: "function", function: { name: "get_weather", parameters: PARAMETERS } },
    ];
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: WEATHER_QUESTION }];
    const first = await openai.chat.completions
      .stream({ model: "fake-gpt", messages, tools })
      .finalChatCompletion();
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && call.function).toEqual({
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });
    messages.push(first.choices[0]?.message as ChatCompletionMessageParam);
    messages.push({ role: "tool", tool_call_id: call?.id ?? "", content: "sunny" });
    const second = await openai.chat.completions.create({ model: "fake-gpt", messages, tools });
    expect(second.choices[0]?.message.content).toBe("It is sunny in Paris.");
  });
});

describe("the official openai client against the fake model: the Responses API", () => {
  it("gets output_text of a plain response", async () => {
    const openai = client((await startFakeLlm()).url);
    const response = await openai.responses.create({ model: "fake-gpt", input: QUESTION });
    expect(response.output_text).toBe(ANSWER);
    expect(response.status).toBe("completed");
  });

  it("gets the text deltas and the final response of a stream", async () => {
    const openai = client((await startFakeLlm()).url);
    const stream = openai.responses.stream({ model: "fake-gpt", input: QUESTION });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(ANSWER);
    expect(final.output_text).toBe(ANSWER);
  });

  it("does a tool round trip with function_call and function_call_output items", async () => {
    const openai = client((await startFakeLlm({ script: WEATHER_SCRIPT })).url);
    const tools: FunctionTool[] = [
      { type: "function", name: "get_weather", parameters: PARAMETERS, strict: true },
    ];
    const input: ResponseInputItem[] = [{ role: "user", content: WEATHER_QUESTION }];
    const first = await openai.responses.create({ model: "fake-gpt", input, tools, stream: true });
    let done: OpenAI.Responses.Response | undefined;
    for await (const event of first) if (event.type === "response.completed") done = event.response;
    const call = done?.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ name: "get_weather", arguments: '{"city":"Paris"}' });
    if (call?.type !== "function_call") throw new Error("no function call");
    input.push(call, { type: "function_call_output", call_id: call.call_id, output: "sunny" });
    const second = await openai.responses.create({ model: "fake-gpt", input, tools });
    expect(second.output_text).toBe("It is sunny in Paris.");
  });
});
