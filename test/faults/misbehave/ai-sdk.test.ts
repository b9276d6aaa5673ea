/**
 * `llm_misbehave` read by the AI SDK (`ai` with `@ai-sdk/openai`): `generateText` and
 * `streamText`, on Chat Completions (`openai.chat`) and on the Responses API (`openai`).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { MisbehaveKind, MisbehaveProvider } from "../../../src/scenario/model-faults.js";
import { APPLIED, behindProxy, evidence, GREETING, misbehave, WEATHER } from "./harness.js";

const cities: string[] = [];
const tools = {
  get_weather: tool({
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      cities.push(city);
      return { city, sky: "sunny" };
    },
  }),
};

function model(url: string, provider: MisbehaveProvider): LanguageModel {
  const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey: "sk-test" });
  return provider === "openai" ? openai.chat("fake-gpt") : openai("fake-gpt");
}

/** One step's outcome as the caller sees it: finish reason, text, and what became of the tool call. */
async function step(provider: MisbehaveProvider, kind: MisbehaveKind, question: string, streamed: boolean) {
  const { url, sink } = await behindProxy(misbehave(provider, kind));
  const options = {
    model: model(url, provider),
    prompt: question,
    tools,
    stopWhen: stepCountIs(1),
    maxRetries: 0,
  };
  const result = streamed ? streamText(options) : await generateText(options);
  const content = await result.content;
  return {
    finish: await result.finishReason,
    text: await result.text,
    parts: content
      .filter((part) => part.type !== "text")
      .map((part) =>
        part.type === "tool-call"
          ? { call: part.toolName, input: part.input, invalid: part.invalid ?? false }
          : part.type === "tool-error"
            ? { error: String(part.error) }
            : part.type === "tool-result"
              ? { result: part.toolName }
              : { other: part.type },
      ),
    evidence: evidence(sink),
  };
}

describe.each([
  ["openai", "generateText", false],
  ["openai", "streamText", true],
  ["openai_responses", "generateText", false],
  ["openai_responses", "streamText", true],
] as const)("llm_misbehave %s read by the AI SDK's %s", (provider, _how, streamed) => {
  it("tool_args_invalid: the call is marked invalid with the raw text as its input; the tool never runs", async () => {
    cities.length = 0;
    const outcome = await step(provider, "tool_args_invalid", WEATHER, streamed);
    expect(outcome.parts).toEqual([
      { call: "get_weather", input: '{"city":"Par', invalid: true },
      { error: expect.stringContaining("Invalid input for tool get_weather: JSON parsing failed") },
    ]);
    expect(outcome.finish).toBe("tool-calls");
    expect(cities).toEqual([]);
    expect(outcome.evidence).toEqual(APPLIED);
  });

  it("unknown_tool: the call is marked invalid with a tool error the next step can answer", async () => {
    const outcome = await step(provider, "unknown_tool", WEATHER, streamed);
    expect(outcome.parts).toEqual([
      { call: "agentchaos_unknown_tool", input: { city: "Paris" }, invalid: true },
      { error: expect.stringContaining("Model tried to call unavailable tool 'agentchaos_unknown_tool'") },
    ]);
    expect(outcome.evidence).toEqual(APPLIED);
  });

  it("empty: no text, no call, finish reason stop", async () => {
    const outcome = await step(provider, "empty", WEATHER, streamed);
    expect([outcome.finish, outcome.text, outcome.parts]).toEqual(["stop", "", []]);
    expect(outcome.evidence).toEqual(APPLIED);
  });

  it("length_mid_tool: finish reason length", async () => {
    const outcome = await step(provider, "length_mid_tool", WEATHER, streamed);
    expect(outcome.finish).toBe("length");
    expect(outcome.evidence).toEqual(APPLIED);
  });

  it("content_filter: finish reason content-filter, no text", async () => {
    const outcome = await step(provider, "content_filter", GREETING, streamed);
    expect([outcome.finish, outcome.text]).toEqual(["content-filter", ""]);
    expect(outcome.evidence).toEqual(APPLIED);
  });
});
