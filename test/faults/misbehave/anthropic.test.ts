/**
 * `llm_misbehave` on Anthropic Messages, read by the official `@anthropic-ai/sdk` client:
 * `messages.create` (JSON) and `messages.stream` (its final message, built from the events).
 */
import Anthropic from "@anthropic-ai/sdk";
import type { Message } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import type { MisbehaveKind } from "../../../src/scenario/model-faults.js";
import {
  APPLIED,
  behindProxy,
  CUT_ARGUMENTS,
  evidence,
  GREETING,
  misbehave,
  NOT_APPLICABLE,
  WEATHER,
} from "./harness.js";

const REFUSAL = "I'm sorry, but I can't help with that.";
const TOOLS = [
  {
    name: "get_weather",
    input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
  },
];

function request(question: string) {
  return {
    model: "fake-claude",
    max_tokens: 100,
    messages: [{ role: "user" as const, content: question }],
    tools: TOOLS,
  };
}

function summary(message: Message) {
  return {
    stop: message.stop_reason,
    blocks: message.content.map((block) =>
      block.type === "tool_use"
        ? { tool: block.name, input: block.input }
        : block.type === "text"
          ? block.text
          : block.type,
    ),
  };
}

async function complete(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("anthropic", kind));
  const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-test", maxRetries: 0 });
  return { answer: summary(await client.messages.create(request(question))), evidence: evidence(sink) };
}

async function stream(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("anthropic", kind));
  const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-test", maxRetries: 0 });
  const messages = client.messages.stream(request(question));
  const partials: string[] = [];
  messages.on("inputJson", (partial) => partials.push(partial));
  const final = await messages.finalMessage();
  return { answer: summary(final), evidence: evidence(sink), json: partials.join("") };
}

describe("llm_misbehave anthropic, JSON answers read by messages.create", () => {
  it("tool_args_invalid: the tool_use input is the cut JSON text, a string", async () => {
    const { answer, evidence } = await complete("tool_args_invalid", WEATHER);
    expect(answer).toEqual({ stop: "tool_use", blocks: [{ tool: "get_weather", input: CUT_ARGUMENTS }] });
    expect(evidence).toEqual(APPLIED);
  });

  it("length_mid_tool: the input is cut and the stop reason is max_tokens", async () => {
    const { answer, evidence } = await complete("length_mid_tool", WEATHER);
    expect(answer).toEqual({ stop: "max_tokens", blocks: [{ tool: "get_weather", input: CUT_ARGUMENTS }] });
    expect(evidence).toEqual(APPLIED);
  });

  it("missing_finish does not apply", async () => {
    const { answer, evidence } = await complete("missing_finish", GREETING);
    expect(answer).toEqual({ stop: "end_turn", blocks: ["I only know about the weather."] });
    expect(evidence).toEqual(NOT_APPLICABLE);
  });
});

describe("llm_misbehave anthropic, streamed answers read by messages.stream", () => {
  it("tool_args_invalid: the input JSON ends in the middle; the client's partial parse drops the unfinished value", async () => {
    const { answer, evidence, json } = await stream("tool_args_invalid", WEATHER);
    expect(json).toBe(CUT_ARGUMENTS);
    expect(answer).toEqual({ stop: "tool_use", blocks: [{ tool: "get_weather", input: {} }] });
    expect(evidence).toEqual(APPLIED);
  });

  it("length_mid_tool: the input JSON is cut and the stop reason is max_tokens", async () => {
    const { answer, json } = await stream("length_mid_tool", WEATHER);
    expect(json).toBe(CUT_ARGUMENTS);
    expect(answer.stop).toBe("max_tokens");
  });

  it("missing_finish: message_stop arrives, no stop reason ever did", async () => {
    const { answer, evidence } = await stream("missing_finish", GREETING);
    expect(answer).toEqual({ stop: null, blocks: ["I only know about the weather."] });
    expect(evidence).toEqual(APPLIED);
  });
});

describe.each([
  ["JSON", complete],
  ["streamed", stream],
] as const)("llm_misbehave anthropic, %s answers, the content kinds", (_mode, call) => {
  it("unknown_tool: the tool_use block names a tool nobody offered", async () => {
    const { answer, evidence } = await call("unknown_tool", WEATHER);
    expect(answer).toEqual({
      stop: "tool_use",
      blocks: [{ tool: "agentchaos_unknown_tool", input: { city: "Paris" } }],
    });
    expect(evidence).toEqual(APPLIED);
  });

  it("empty: no content block, stop reason end_turn", async () => {
    const { answer, evidence } = await call("empty", WEATHER);
    expect(answer).toEqual({ stop: "end_turn", blocks: [] });
    expect(evidence).toEqual(APPLIED);
  });

  it("refusal: stop reason refusal with the refusal as the only text", async () => {
    const { answer, evidence } = await call("refusal", WEATHER);
    expect(answer).toEqual({ stop: "refusal", blocks: [REFUSAL] });
    expect(evidence).toEqual(APPLIED);
  });

  it("content_filter: stop reason refusal, content emptied", async () => {
    const { answer, evidence } = await call("content_filter", GREETING);
    expect(answer).toEqual({ stop: "refusal", blocks: [] });
    expect(evidence).toEqual(APPLIED);
  });

  it("the tool kinds do not apply to an answer without a tool_use block", async () => {
    const { answer, evidence } = await call("length_mid_tool", GREETING);
    expect(answer).toEqual({ stop: "end_turn", blocks: ["I only know about the weather."] });
    expect(evidence).toEqual(NOT_APPLICABLE);
  });
});
