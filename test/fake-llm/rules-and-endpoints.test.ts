import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { embed } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { embeddingVector } from "../../src/fake-llm/embeddings.js";
import { parseScript, ScriptError } from "../../src/fake-llm/script.js";
import { closeFakeLlmsAfterEach, startFakeLlm } from "./helpers.js";

closeFakeLlmsAfterEach();

function openai(url: string): OpenAI {
  return new OpenAI({
    baseURL: `${url}/v1`,
    apiKey: "sk-test",
    maxRetries: 0,
    organization: null,
    project: null,
  });
}

function anthropic(url: string): Anthropic {
  return new Anthropic({ baseURL: url, apiKey: "sk-ant-test", maxRetries: 0 });
}

const ask = (client: OpenAI, content: string) =>
  client.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content }] });

const RULES = `
- when: {call: 1}
  error: {status: 429, message: slow down, retry_after_seconds: 2}
- when: {user_matches: "^order #\\\\d+$"}
  answer: {text: An order number.}
- when: {call: [3, 4]}
  latency_ms: 5
  answer: {text: Third or fourth.}
- answer: {text: Anything else.}
`;

describe("fake-llm rules by call number and regex, with errors and latency", () => {
  it("answers the first call with a provider-shaped 429 the openai client raises as RateLimitError", async () => {
    const client = openai((await startFakeLlm({ script: RULES })).url);
    const failure = await ask(client, "hello").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const error = failure as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.headers.get("retry-after")).toBe("2");
    expect(error.error).toMatchObject({ message: "slow down", type: "rate_limit_error" });
    // The next calls are numbered 2, 3, 4, 5.
    expect((await ask(client, "order #42")).choices[0]?.message.content).toBe("An order number.");
    expect((await ask(client, "order #x")).choices[0]?.message.content).toBe("Third or fourth.");
    expect((await ask(client, "order #7")).choices[0]?.message.content).toBe("An order number.");
    expect((await ask(client, "hi")).choices[0]?.message.content).toBe("Anything else.");
  });

  it("answers Anthropic's client with its own error shape, raised as the matching error class", async () => {
    const script = "- error: {status: 529, message: busy}\n";
    const client = anthropic((await startFakeLlm({ script })).url);
    const failure = await client.messages
      .create({ model: "fake-claude", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    const error = failure as InstanceType<typeof Anthropic.APIError>;
    expect(error.status).toBe(529);
    expect(error.error).toEqual({ type: "error", error: { type: "overloaded_error", message: "busy" } });
  });

  it("refuses a regex that does not compile and a rule with both answer and error, with their positions", () => {
    const bad =
      "- when: {user_matches: '('}\n  answer: {text: a}\n- answer: {text: b}\n  error: {status: 500}\n";
    let caught: unknown;
    try {
      parseScript(bad);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScriptError);
    const problems = (caught as ScriptError).problems.map((problem) => [
      problem.path,
      problem.line,
      problem.message,
    ]);
    expect(problems).toEqual([
      ["[0].when.user_matches", 1, "expected a regular expression, got one that does not compile"],
      ["[1]", 3, "expected exactly one of answer and error"],
    ]);
  });
});

describe("fake-llm usage, models and embeddings", () => {
  it("reports usage in every answer, and in a chat stream when include_usage asks for it", async () => {
    const { url } = await startFakeLlm();
    const client = openai(url);
    const completion = await ask(client, "count these words");
    expect(completion.usage).toMatchObject({ prompt_tokens: 3, total_tokens: expect.any(Number) });
    const stream = await client.chat.completions.create({
      model: "fake-gpt",
      messages: [{ role: "user", content: "count these words" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) if (chunk.usage) streamed = chunk.usage;
    expect(streamed).toEqual(completion.usage);
    const response = await client.responses.create({ model: "fake-gpt", input: "count these words" });
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
    const message = await anthropic(url).messages.create({
      model: "fake-claude",
      max_tokens: 64,
      messages: [{ role: "user", content: "count these words" }],
    });
    expect(message.usage).toMatchObject({ input_tokens: 3 });
  });

  it("lists and retrieves models for both official clients", async () => {
    const { url } = await startFakeLlm();
    const ids: string[] = [];
    for await (const model of openai(url).models.list()) ids.push(model.id);
    expect(ids).toEqual(["fake-model", "fake-embedding"]);
    expect((await openai(url).models.retrieve("gpt-x")).id).toBe("gpt-x");
    const anthropicIds: string[] = [];
    for await (const model of anthropic(url).models.list()) anthropicIds.push(model.id);
    expect(anthropicIds).toEqual(["fake-model", "fake-embedding"]);
  });

  it("embeds deterministically: the openai client's base64 default and floats agree, with usage", async () => {
    const { url } = await startFakeLlm();
    const client = openai(url);
    const viaBase64 = await client.embeddings.create({
      model: "fake-embedding",
      input: ["alpha beta", "gamma"],
    });
    const viaFloat = await client.embeddings.create({
      model: "fake-embedding",
      input: ["alpha beta", "gamma"],
      encoding_format: "float",
    });
    expect(viaBase64.data).toHaveLength(2);
    expect(viaBase64.data[0]?.embedding).toHaveLength(1536);
    expect(viaBase64.data[0]?.embedding).toEqual(viaFloat.data[0]?.embedding);
    expect(viaFloat.data[1]?.embedding).toEqual(Array.from(embeddingVector("gamma", 1536)));
    expect(viaFloat.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const small = await client.embeddings.create({
      model: "fake-embedding",
      input: "alpha beta",
      dimensions: 8,
    });
    const vector = small.data[0]?.embedding ?? [];
    expect(vector).toHaveLength(8);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it("gives the AI SDK's embed the same vector", async () => {
    const { url } = await startFakeLlm();
    const provider = createOpenAI({ baseURL: `${url}/v1`, apiKey: "sk-test" });
    const result = await embed({
      model: provider.embedding("fake-embedding"),
      value: "gamma",
      maxRetries: 0,
    });
    expect(result.embedding).toEqual(Array.from(embeddingVector("gamma", 1536)));
  });
});
