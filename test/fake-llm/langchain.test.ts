import { type AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { closeFakeLlmsAfterEach, startFakeLlm, WEATHER_QUESTION, WEATHER_SCRIPT } from "./helpers.js";

closeFakeLlmsAfterEach();

const QUESTION = "Say hello to Agent Chaos";
const ANSWER = `Echo: ${QUESTION}`;

/** The paths of the requests the client sent in the current test. */
let paths: string[] = [];
beforeEach(() => {
  paths = [];
});

function chat(url: string, options: { useResponsesApi?: boolean } = {}): ChatOpenAI {
  const recording: typeof fetch = (input, init) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };
  return new ChatOpenAI({
    model: "fake-gpt",
    apiKey: "sk-test",
    maxRetries: 0,
    configuration: { baseURL: `${url}/v1`, fetch: recording },
    ...options,
  });
}

const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "The weather in a city",
  schema: z.object({ city: z.string() }),
});

/** Asks the weather question, runs the tool the model calls, sends its result back; returns both answers. */
async function weatherRoundTrip(model: ChatOpenAI): Promise<{ first: AIMessage; second: AIMessage }> {
  const withTools = model.bindTools([getWeather]);
  const messages: BaseMessage[] = [new HumanMessage(WEATHER_QUESTION)];
  const first = await withTools.invoke(messages);
  messages.push(first);
  for (const call of first.tool_calls ?? []) {
    messages.push(
      new ToolMessage({
        tool_call_id: call.id ?? "",
        content: await getWeather.invoke(call.args as { city: string }),
      }),
    );
  }
  return { first, second: await withTools.invoke(messages) };
}

describe("LangChain.js (@langchain/openai) against the fake model", () => {
  it("gets the answer of invoke", async () => {
    const model = chat((await startFakeLlm()).url);
    const message = await model.invoke(QUESTION);
    expect(message.content).toBe(ANSWER);
  });

  it("gets the answer of stream in more than one chunk", async () => {
    const model = chat((await startFakeLlm()).url);
    const pieces: string[] = [];
    for await (const chunk of await model.stream(QUESTION)) {
      if (typeof chunk.content === "string" && chunk.content !== "") pieces.push(chunk.content);
    }
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(ANSWER);
  });

  it("runs a tool round trip with bindTools over Chat Completions", async () => {
    const { first, second } = await weatherRoundTrip(
      chat((await startFakeLlm({ script: WEATHER_SCRIPT })).url),
    );
    expect(first.tool_calls?.map((call) => [call.name, call.args])).toEqual([
      ["get_weather", { city: "Paris" }],
    ]);
    expect(second.content).toBe("It is sunny in Paris.");
    expect(paths).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });

  it("runs a tool round trip with bindTools over the Responses API", async () => {
    const model = chat((await startFakeLlm({ script: WEATHER_SCRIPT })).url, { useResponsesApi: true });
    const { first, second } = await weatherRoundTrip(model);
    expect(first.tool_calls?.map((call) => [call.name, call.args])).toEqual([
      ["get_weather", { city: "Paris" }],
    ]);
    expect(second.text).toBe("It is sunny in Paris.");
    expect(paths).toEqual(["/v1/responses", "/v1/responses"]);
  });
});
