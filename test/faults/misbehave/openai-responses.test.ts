/**
 * `llm_misbehave` on the Responses API, read by the official `openai` client: `responses.create`
 * (JSON and a raw event stream) through the real proxy in front of the fake model.
 */
import OpenAI from "openai";
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
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
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    strict: false,
  },
];

function client(url: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-test", maxRetries: 0 });
}

/** What a caller reads from a response: its status, why it is incomplete, its items. */
function summary(response: Response) {
  return {
    status: response.status ?? null,
    reason: response.incomplete_details?.reason ?? null,
    // `output_text` as the client computes it for a JSON answer (a stream's events carry none).
    text: response.output
      .flatMap((item) => (item.type === "message" ? item.content : []))
      .map((part) => (part.type === "output_text" ? part.text : ""))
      .join(""),
    items: response.output.map((item) =>
      item.type === "function_call"
        ? { call: item.name, arguments: item.arguments }
        : item.type === "message"
          ? {
              message: item.content.map((part) =>
                part.type === "refusal" ? { refusal: part.refusal } : part.text,
              ),
            }
          : { other: item.type },
    ),
    usage: response.usage !== undefined && response.usage !== null,
  };
}

async function complete(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("openai_responses", kind));
  const response = await client(url).responses.create({ model: "fake-gpt", input: question, tools: TOOLS });
  expect(response.output_text).toBe(summary(response).text);
  return { answer: summary(response), evidence: evidence(sink), terminal: null as string | null };
}

async function stream(kind: MisbehaveKind, question: string) {
  const { url, sink } = await behindProxy(misbehave("openai_responses", kind));
  const events = await client(url).responses.create({
    model: "fake-gpt",
    input: question,
    tools: TOOLS,
    stream: true,
  });
  const sequence: number[] = [];
  let final: Response | null = null;
  let terminal: string | null = null;
  const deltas = new Map<string, string>();
  for await (const event of events as AsyncIterable<ResponseStreamEvent>) {
    sequence.push(event.sequence_number);
    if (event.type === "response.function_call_arguments.delta")
      deltas.set(event.item_id, (deltas.get(event.item_id) ?? "") + event.delta);
    if (event.type === "response.completed" || event.type === "response.incomplete") {
      final = event.response;
      terminal = event.type;
    }
  }
  // The numbering stays gapless whatever was dropped or added.
  expect(sequence).toEqual(sequence.map((_, index) => index));
  // The argument deltas add up to what the items say.
  for (const item of final?.output ?? []) {
    if (item.type === "function_call") expect(deltas.get(item.id ?? "")).toBe(item.arguments);
  }
  const answer = summary(final as Response);
  return { answer, evidence: evidence(sink), terminal };
}

describe.each([
  ["JSON", complete, "response.completed", "response.incomplete"],
  ["streamed", stream, "response.completed", "response.incomplete"],
] as const)(
  "llm_misbehave openai_responses, %s answers read by the openai client",
  (mode, call, completed, incomplete) => {
    const terminal = (name: string) => (mode === "JSON" ? null : name);

    it("tool_args_invalid: the function call's arguments are a cut JSON text", async () => {
      const result = await call("tool_args_invalid", WEATHER);
      expect(result.answer).toMatchObject({
        status: "completed",
        items: [{ call: "get_weather", arguments: CUT_ARGUMENTS }],
      });
      expect([result.terminal, result.evidence]).toEqual([terminal(completed), APPLIED]);
    });

    it("unknown_tool: the function call names a tool nobody offered", async () => {
      const result = await call("unknown_tool", WEATHER);
      expect(result.answer.items).toEqual([
        { call: "agentchaos_unknown_tool", arguments: '{"city":"Paris"}' },
      ]);
      expect(result.evidence).toEqual(APPLIED);
    });

    it("empty: no message and no function call, status completed", async () => {
      const result = await call("empty", WEATHER);
      expect(result.answer).toMatchObject({ status: "completed", reason: null, text: "", items: [] });
      expect(result.evidence).toEqual(APPLIED);
    });

    it("refusal: one message whose only part is a refusal", async () => {
      const result = await call("refusal", GREETING);
      expect(result.answer).toMatchObject({
        status: "completed",
        text: "",
        items: [{ message: [{ refusal: REFUSAL }] }],
      });
      expect(result.evidence).toEqual(APPLIED);
    });

    it("length_mid_tool: cut arguments, status incomplete for max_output_tokens", async () => {
      const result = await call("length_mid_tool", WEATHER);
      expect(result.answer).toMatchObject({
        status: "incomplete",
        reason: "max_output_tokens",
        items: [{ call: "get_weather", arguments: CUT_ARGUMENTS }],
      });
      expect([result.terminal, result.evidence]).toEqual([terminal(incomplete), APPLIED]);
    });

    it("content_filter: content emptied, status incomplete for content_filter", async () => {
      const result = await call("content_filter", GREETING);
      expect(result.answer).toMatchObject({ status: "incomplete", reason: "content_filter", items: [] });
      expect([result.terminal, result.evidence]).toEqual([terminal(incomplete), APPLIED]);
    });

    it("the tool kinds do not apply to an answer without a function call", async () => {
      const result = await call("unknown_tool", GREETING);
      expect(result.answer).toMatchObject({ status: "completed", text: "I only know about the weather." });
      expect(result.evidence).toEqual(NOT_APPLICABLE);
    });
  },
);

describe("llm_misbehave openai_responses missing_finish", () => {
  it("the stream ends with a response.completed without status or usage", async () => {
    const result = await stream("missing_finish", GREETING);
    expect(result.answer).toMatchObject({
      status: null,
      usage: false,
      text: "I only know about the weather.",
    });
    expect([result.terminal, result.evidence]).toEqual(["response.completed", APPLIED]);
  });

  it("does not apply to a JSON answer", async () => {
    const result = await complete("missing_finish", GREETING);
    expect(result.answer).toMatchObject({ status: "completed", usage: true });
    expect(result.evidence).toEqual(NOT_APPLICABLE);
  });
});
