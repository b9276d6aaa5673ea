import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { closeFakeLlmsAfterEach, startFakeLlm, WEATHER_QUESTION, WEATHER_SCRIPT } from "./helpers.js";

closeFakeLlmsAfterEach();

const QUESTION = "Say hello to Agent Chaos";
const ANSWER = `Echo: ${QUESTION}`;

/** An AI SDK provider pointed at the fake model; `paths` collects the path of every request it sends. */
function provider(url: string, paths: string[]) {
  return createOpenAI({
    baseURL: `${url}/v1`,
    apiKey: "sk-test",
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    },
  });
}

function weatherTool(cities: string[]) {
  return tool({
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      cities.push(city);
      return { city, sky: "sunny" };
    },
  });
}

describe("the Vercel AI SDK against the fake model", () => {
  it("generates text with the default openai(model), which calls the Responses API", async () => {
    const paths: string[] = [];
    const openai = provider((await startFakeLlm()).url, paths);
    const result = await generateText({ model: openai("fake-gpt"), prompt: QUESTION, maxRetries: 0 });
    expect(result.text).toBe(ANSWER);
    expect(result.finishReason).toBe("stop");
    expect(paths).toEqual(["/v1/responses"]);
  });

  it("runs a tool round trip in generateText: a tool call, the tool's result, the final answer", async () => {
    const paths: string[] = [];
    const cities: string[] = [];
    const openai = provider((await startFakeLlm({ script: WEATHER_SCRIPT })).url, paths);
    const result = await generateText({
      model: openai("fake-gpt"),
      prompt: WEATHER_QUESTION,
      tools: { get_weather: weatherTool(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(cities).toEqual(["Paris"]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ["get_weather", { city: "Paris" }],
    ]);
    expect(result.text).toBe("It is sunny in Paris.");
    expect(paths).toEqual(["/v1/responses", "/v1/responses"]);
  });

  it("streams text with streamText, in more than one piece", async () => {
    const paths: string[] = [];
    const openai = provider((await startFakeLlm()).url, paths);
    const result = streamText({ model: openai("fake-gpt"), prompt: QUESTION, maxRetries: 0 });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(ANSWER);
    expect(paths).toEqual(["/v1/responses"]);
  });

  it("runs a streamed tool round trip with streamText", async () => {
    const paths: string[] = [];
    const cities: string[] = [];
    const openai = provider((await startFakeLlm({ script: WEATHER_SCRIPT })).url, paths);
    const result = streamText({
      model: openai("fake-gpt"),
      prompt: WEATHER_QUESTION,
      tools: { get_weather: weatherTool(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(await result.text).toBe("It is sunny in Paris.");
    expect(cities).toEqual(["Paris"]);
    expect(await result.steps).toHaveLength(2);
  });

  it("runs a tool round trip over Chat Completions with openai.chat(model)", async () => {
    const paths: string[] = [];
    const cities: string[] = [];
    const openai = provider((await startFakeLlm({ script: WEATHER_SCRIPT })).url, paths);
    const result = await generateText({
      model: openai.chat("fake-gpt"),
      prompt: WEATHER_QUESTION,
      tools: { get_weather: weatherTool(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(result.text).toBe("It is sunny in Paris.");
    expect(cities).toEqual(["Paris"]);
    expect(paths).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });
});
