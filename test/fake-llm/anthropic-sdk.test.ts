import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { closeFakeLlmsAfterEach, startFakeLlm, WEATHER_QUESTION, WEATHER_SCRIPT } from "./helpers.js";

closeFakeLlmsAfterEach();

const QUESTION = "Say hello to Agent Chaos";
const ANSWER = `Echo: ${QUESTION}`;
const TOOLS: Tool[] = [
  {
    name: "get_weather",
    input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

function client(url: string): Anthropic {
  return new Anthropic({ baseURL: url, apiKey: "sk-ant-test", authToken: null, maxRetries: 0 });
}

function textOf(message: Anthropic.Message): string {
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("the official Anthropic client against the fake model", () => {
  it("gets the answer of a plain message", async () => {
    const anthropic = client((await startFakeLlm()).url);
    const message = await anthropic.messages.create({
      model: "fake-claude",
      max_tokens: 64,
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(textOf(message)).toBe(ANSWER);
    expect(message.stop_reason).toBe("end_turn");
  });

  it("gets the text events and the final message of a stream", async () => {
    const anthropic = client((await startFakeLlm()).url);
    const stream = anthropic.messages.stream({
      model: "fake-claude",
      max_tokens: 64,
      messages: [{ role: "user", content: QUESTION }],
    });
    const pieces: string[] = [];
    stream.on("text", (text) => pieces.push(text));
    const final = await stream.finalMessage();
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(ANSWER);
    expect(textOf(final)).toBe(ANSWER);
  });

  it("does a tool round trip, the tool_use input assembled from a stream", async () => {
    const anthropic = client((await startFakeLlm({ script: WEATHER_SCRIPT })).url);
    const messages: MessageParam[] = [{ role: "user", content: WEATHER_QUESTION }];
    const first = await anthropic.messages
      .stream({ model: "fake-claude", max_tokens: 64, messages, tools: TOOLS })
      .finalMessage();
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content.find((block) => block.type === "tool_use");
    expect(use).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
    if (use?.type !== "tool_use") throw new Error("no tool_use block");
    messages.push({ role: "assistant", content: first.content });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: use.id, content: "sunny" }],
    });
    const second = await anthropic.messages.create({
      model: "fake-claude",
      max_tokens: 64,
      messages,
      tools: TOOLS,
    });
    expect(textOf(second)).toBe("It is sunny in Paris.");
  });
});
