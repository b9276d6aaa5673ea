/**
 * `llm_misbehave` on Chat Completions, read by the official `openai` client through the real
 * proxy in front of the fake model: what the client returns for each kind, JSON and streamed.
 */
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
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
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

function client(url: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-test", maxRetries: 0 });
}

function request(question: string) {
  return { model: "fake-gpt", messages: [{ role: "user" as const, content: question }], tools: TOOLS };
}

/** What a client makes of a completion: the first choice's answer. */
interface Answer {
  content: string | null;
  refusal: string | null;
  calls: { name: string; arguments: string }[];
  finish: string | null;
  usage: boolean;
}

async function complete(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("openai", kind));
  const completion = await client(url).chat.completions.create(request(question));
  const choice = completion.choices[0];
  const answer: Answer = {
    content: choice?.message.content ?? null,
    refusal: choice?.message.refusal ?? null,
    calls: (choice?.message.tool_calls ?? []).map((call) =>
      call.type === "function"
        ? { name: call.function.name, arguments: call.function.arguments }
        : { name: "", arguments: "" },
    ),
    finish: choice?.finish_reason ?? null,
    usage: completion.usage !== undefined,
  };
  return { answer, evidence: evidence(sink) };
}

async function stream(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("openai", kind));
  const chunks = await client(url).chat.completions.create({
    ...request(question),
    stream: true,
    stream_options: { include_usage: true },
  });
  const answer: Answer = { content: null, refusal: null, calls: [], finish: null, usage: false };
  for await (const chunk of chunks as AsyncIterable<ChatCompletionChunk>) {
    if (chunk.usage) answer.usage = true;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const { delta } = choice;
    if (delta.content != null) answer.content = (answer.content ?? "") + delta.content;
    if (delta.refusal != null) answer.refusal = (answer.refusal ?? "") + delta.refusal;
    for (const call of delta.tool_calls ?? []) {
      answer.calls[call.index] ??= { name: "", arguments: "" };
      const entry = answer.calls[call.index] as { name: string; arguments: string };
      entry.name += call.function?.name ?? "";
      entry.arguments += call.function?.arguments ?? "";
    }
    if (choice.finish_reason !== null) answer.finish = choice.finish_reason;
  }
  return { answer, evidence: evidence(sink) };
}

describe.each([
  ["JSON", complete],
  ["streamed", stream],
] as const)("llm_misbehave openai, %s answers read by the openai client", (_mode, call) => {
  it("tool_args_invalid: the arguments reach the caller as a string that is not JSON", async () => {
    const { answer, evidence } = await call("tool_args_invalid", WEATHER);
    expect(answer).toMatchObject({
      calls: [{ name: "get_weather", arguments: CUT_ARGUMENTS }],
      finish: "tool_calls",
    });
    expect(() => JSON.parse(answer.calls[0]?.arguments ?? "")).toThrow(SyntaxError);
    expect(evidence).toEqual(APPLIED);
  });

  it("unknown_tool: the first tool call names a tool nobody offered", async () => {
    const { answer, evidence } = await call("unknown_tool", WEATHER);
    expect(answer.calls).toEqual([{ name: "agentchaos_unknown_tool", arguments: '{"city":"Paris"}' }]);
    expect(evidence).toEqual(APPLIED);
  });

  it("empty: no content, no tool call, finish reason stop", async () => {
    const { answer, evidence } = await call("empty", WEATHER);
    expect([answer.content ?? "", answer.calls, answer.finish]).toEqual(["", [], "stop"]);
    expect(evidence).toEqual(APPLIED);
  });

  it("refusal: the refusal field holds the refusal, content null", async () => {
    const { answer, evidence } = await call("refusal", GREETING);
    expect(answer).toMatchObject({ content: null, refusal: REFUSAL, calls: [], finish: "stop" });
    expect(evidence).toEqual(APPLIED);
  });

  it("length_mid_tool: the arguments are cut and the finish reason is length", async () => {
    const { answer, evidence } = await call("length_mid_tool", WEATHER);
    expect(answer).toMatchObject({
      calls: [{ name: "get_weather", arguments: CUT_ARGUMENTS }],
      finish: "length",
    });
    expect(evidence).toEqual(APPLIED);
  });

  it("content_filter: finish reason content_filter, content emptied", async () => {
    const { answer, evidence } = await call("content_filter", GREETING);
    expect([answer.content ?? "", answer.calls, answer.finish]).toEqual(["", [], "content_filter"]);
    expect(evidence).toEqual(APPLIED);
  });

  it("the tool kinds do not apply to an answer without a tool call: it arrives untouched", async () => {
    const { answer, evidence } = await call("tool_args_invalid", GREETING);
    expect(answer).toMatchObject({ content: "I only know about the weather.", finish: "stop" });
    expect(evidence).toEqual(NOT_APPLICABLE);
  });
});

describe("llm_misbehave openai missing_finish", () => {
  it("a stream ends with [DONE] and no finish reason or usage; the client ends quietly", async () => {
    const { answer, evidence } = await stream("missing_finish", WEATHER);
    expect(answer).toMatchObject({
      calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }],
      finish: null,
      usage: false,
    });
    expect(evidence).toEqual(APPLIED);
  });

  it("does not apply to a JSON answer", async () => {
    const { answer, evidence } = await complete("missing_finish", GREETING);
    expect(answer).toMatchObject({ finish: "stop", usage: true });
    expect(evidence).toEqual(NOT_APPLICABLE);
  });
});
