// The three clients the model-fault examples drive, behind one small interface: ask the model a
// question with a get_weather tool, get back its text or its tool call (arguments as written).
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import OpenAI from "openai";

const WEATHER_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** Reads MODEL_SDK (openai | anthropic | ai-sdk) and LLM_API_URL; exits 2 on a bad value. */
export function readSetup(name) {
  const sdk = process.env.MODEL_SDK || "openai";
  const url = (process.env.LLM_API_URL || "").replace(/\/+$/, "");
  if (!["openai", "anthropic", "ai-sdk"].includes(sdk) || url === "") {
    process.stderr.write(`${name}: MODEL_SDK must be openai, anthropic or ai-sdk, and LLM_API_URL set\n`);
    process.exit(2);
  }
  return { sdk, url };
}

/**
 * One model call: `{ text }` or `{ call: { name, args } }`, where `args` is what the client
 * handed over (a string of JSON for OpenAI, the input for Anthropic, null when the AI SDK
 * rejected it). An SDK error is thrown as is.
 */
export async function ask({ sdk, url }, apiKey, question, toolResult = null) {
  if (sdk === "openai") {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });
    const messages = [{ role: "user", content: question }];
    if (toolResult !== null) {
      messages.push({ role: "assistant", tool_calls: [toolResult.call] });
      messages.push({ role: "tool", tool_call_id: toolResult.call.id, content: toolResult.content });
    }
    const tools = [{ type: "function", function: { name: "get_weather", parameters: WEATHER_SCHEMA } }];
    const completion = await client.chat.completions.create({ model: "fake-gpt", messages, tools });
    const message = completion.choices[0]?.message;
    const call = message?.tool_calls?.[0];
    if (call === undefined) return { text: message?.content ?? "" };
    return { call: { name: call.function.name, args: call.function.arguments, raw: call } };
  }
  if (sdk === "anthropic") {
    const client = new Anthropic({ baseURL: url, apiKey, maxRetries: 0 });
    const messages = [{ role: "user", content: question }];
    if (toolResult !== null) {
      messages.push({ role: "assistant", content: [toolResult.call] });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: toolResult.call.id, content: toolResult.content }],
      });
    }
    const tools = [{ name: "get_weather", input_schema: WEATHER_SCHEMA }];
    const message = await client.messages.create({ model: "fake-claude", max_tokens: 200, messages, tools });
    const block = message.content.find((entry) => entry.type === "tool_use");
    if (block === undefined) return { text: message.content.map((entry) => entry.text ?? "").join("") };
    return { call: { name: block.name, args: block.input, raw: block } };
  }
  const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey });
  const tools = { get_weather: tool({ inputSchema: jsonSchema(WEATHER_SCHEMA) }) };
  const result = await generateText({
    model: openai("fake-gpt"),
    prompt: question,
    tools,
    stopWhen: stepCountIs(1),
    maxRetries: 0,
  });
  const call = result.content.find((part) => part.type === "tool-call");
  if (call === undefined) return { text: result.text };
  return { call: { name: call.toolName, args: call.invalid ? null : call.input, raw: call } };
}

/** The tool call's arguments as an object; throws when the model's arguments are not usable. */
export function argumentsOf({ sdk }, call) {
  if (sdk === "openai") return JSON.parse(call.args);
  if (call.args === null || typeof call.args !== "object") throw new TypeError("tool input is not an object");
  return call.args;
}
