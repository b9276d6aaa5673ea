import { describe, expect, it } from "vitest";
import {
  closeFakeLlmsAfterEach,
  type ParsedEvent,
  post,
  readEvents,
  startFakeLlm,
  WEATHER_QUESTION,
  WEATHER_SCRIPT,
} from "./helpers.js";

closeFakeLlmsAfterEach();

const QUESTION = "How do agents fail?";
const ANSWER = `Echo: ${QUESTION}`;
const ARGUMENTS = '{"city":"Paris"}';

function json(event: ParsedEvent): Record<string, unknown> {
  return JSON.parse(event.data) as Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: test access into parsed JSON
type Any = any;

describe("the fake model's OpenAI Chat Completions", () => {
  const request = {
    model: "fake-gpt",
    messages: [
      { role: "system", content: "be brief" },
      { role: "user", content: QUESTION },
    ],
  };

  it("answers with the chat.completion JSON shape, ids numbered by request and nothing else changing", async () => {
    const { url } = await startFakeLlm();
    const response = await post(`${url}/v1/chat/completions`, request);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const first = (await response.json()) as Any;
    expect(first).toEqual({
      id: "chatcmpl-fake-1",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "fake-gpt",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: ANSWER, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
    });
    const second = (await (await post(`${url}/v1/chat/completions`, request)).json()) as Any;
    expect(second).toEqual({ ...first, id: "chatcmpl-fake-2" });
  });

  it("streams chat.completion.chunk deltas: the role, word pieces, the finish reason, usage on request, [DONE]", async () => {
    const { url } = await startFakeLlm();
    const response = await post(`${url}/v1/chat/completions`, {
      ...request,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const { events } = await readEvents(response);
    expect(events.every((event) => event.event === null)).toBe(true);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map(json) as Any[];
    expect(
      chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.id === "chatcmpl-fake-1"),
    ).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
    const pieces = chunks.slice(1, -2).map((chunk) => chunk.choices[0].delta.content);
    expect(pieces).toEqual(["Echo: ", "How ", "do ", "agents ", "fail?"]);
    expect(chunks.at(-2).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: "stop" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 9 } });
  });

  it("answers a scripted tool call, and the request carrying the tool result gets the next rule's answer", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const ask = { model: "fake-gpt", messages: [{ role: "user", content: WEATHER_QUESTION }] };
    const first = (await (await post(`${url}/chat/completions`, ask)).json()) as Any;
    expect(first.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [
          { id: "call_fake_1_1", type: "function", function: { name: "get_weather", arguments: ARGUMENTS } },
        ],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    });
    const messages = [
      ...ask.messages,
      first.choices[0].message,
      { role: "tool", tool_call_id: "call_fake_1_1", content: "sunny" },
    ];
    const second = (await (await post(`${url}/chat/completions`, { ...ask, messages })).json()) as Any;
    expect(second.choices[0].message.content).toBe("It is sunny in Paris.");
    expect(second.choices[0].finish_reason).toBe("stop");
  });

  it("streams a tool call as one delta with its id and name, then its arguments in pieces", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const response = await post(`${url}/v1/chat/completions`, {
      model: "fake-gpt",
      stream: true,
      messages: [{ role: "user", content: WEATHER_QUESTION }],
    });
    const chunks = (await readEvents(response)).events.slice(0, -1).map(json) as Any[];
    const calls = chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: "call_fake_1_1",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.map((call) => call.function.arguments).join("")).toBe(ARGUMENTS);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });
});

describe("the fake model's OpenAI Responses API", () => {
  it("answers a string input with a completed response holding one output_text message", async () => {
    const { url } = await startFakeLlm();
    const response = await post(`${url}/v1/responses`, { model: "fake-gpt", input: QUESTION });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Any;
    expect(body).toMatchObject({
      id: "resp_fake_1",
      object: "response",
      status: "completed",
      model: "fake-gpt",
      output: [
        {
          id: "msg_fake_1",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: ANSWER, annotations: [] }],
        },
      ],
      usage: { input_tokens: 4, output_tokens: 5, total_tokens: 9 },
    });
  });

  it("reads the last user message of an input list, with text parts", async () => {
    const { url } = await startFakeLlm();
    const input = [
      { role: "developer", content: "be brief" },
      { type: "message", role: "user", content: [{ type: "input_text", text: QUESTION }] },
    ];
    const body = (await (await post(`${url}/v1/responses`, { model: "m", input })).json()) as Any;
    expect(body.output[0].content[0].text).toBe(ANSWER);
  });

  it("streams the documented events with sequence numbers 0, 1, 2, ...", async () => {
    const { url } = await startFakeLlm();
    const response = await post(`${url}/v1/responses`, { model: "fake-gpt", input: QUESTION, stream: true });
    const { events } = await readEvents(response);
    const data = events.map(json) as Any[];
    expect(events.map((event) => event.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(5).fill("response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(data.map((d) => d.type)).toEqual(events.map((event) => event.event));
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, index) => index));
    expect(data[0].response).toMatchObject({ id: "resp_fake_1", status: "in_progress", output: [] });
    const deltas = data.filter((d) => d.type === "response.output_text.delta");
    expect(deltas.map((d) => d.delta).join("")).toBe(ANSWER);
    expect(
      deltas.every((d) => d.item_id === "msg_fake_1" && d.output_index === 0 && d.content_index === 0),
    ).toBe(true);
    expect(data.find((d) => d.type === "response.output_text.done").text).toBe(ANSWER);
    expect(data.at(-1).response).toMatchObject({ status: "completed", output: [{ type: "message" }] });
  });

  it("answers a scripted function_call item; a function_call_output gets the next answer", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const first = (await (
      await post(`${url}/v1/responses`, { model: "m", input: WEATHER_QUESTION })
    ).json()) as Any;
    expect(first.output).toEqual([
      {
        id: "fc_fake_1_1",
        type: "function_call",
        status: "completed",
        call_id: "call_fake_1_1",
        name: "get_weather",
        arguments: ARGUMENTS,
      },
    ]);
    const input = [
      { role: "user", content: WEATHER_QUESTION },
      ...first.output,
      { type: "function_call_output", call_id: "call_fake_1_1", output: "sunny" },
    ];
    const second = (await (await post(`${url}/v1/responses`, { model: "m", input })).json()) as Any;
    expect(second.output[0].content[0].text).toBe("It is sunny in Paris.");
  });

  it("streams a function call: item added with empty arguments, argument deltas, arguments done, item done", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const response = await post(`${url}/v1/responses`, { model: "m", input: WEATHER_QUESTION, stream: true });
    const data = (await readEvents(response)).events.map(json) as Any[];
    const deltas = data.filter((d) => d.type === "response.function_call_arguments.delta");
    expect(data.map((d) => d.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      ...deltas.map(() => "response.function_call_arguments.delta"),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(data[2].item).toMatchObject({ type: "function_call", name: "get_weather", arguments: "" });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.delta).join("")).toBe(ARGUMENTS);
    expect(data.at(-1).response.output[0]).toMatchObject({ call_id: "call_fake_1_1", arguments: ARGUMENTS });
  });
});

describe("the fake model's Anthropic Messages", () => {
  const request = {
    model: "fake-claude",
    max_tokens: 64,
    messages: [{ role: "user", content: [{ type: "text", text: QUESTION }] }],
  };

  it("answers with the message JSON shape", async () => {
    const { url } = await startFakeLlm();
    const body = (await (await post(`${url}/v1/messages`, request)).json()) as Any;
    expect(body).toEqual({
      id: "msg_fake_1",
      type: "message",
      role: "assistant",
      model: "fake-claude",
      content: [{ type: "text", text: ANSWER }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 4, output_tokens: 5 },
    });
  });

  it("streams message_start, content_block_start, ping, deltas, content_block_stop, message_delta, message_stop", async () => {
    const { url } = await startFakeLlm();
    const { events } = await readEvents(await post(`${url}/v1/messages`, { ...request, stream: true }));
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      ...Array(5).fill("content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = events.map(json) as Any[];
    expect(data.map((d) => d.type)).toEqual(events.map((event) => event.event));
    expect(data.map((d) => d.delta?.text ?? "").join("")).toBe(ANSWER);
    expect(data.at(-2).delta.stop_reason).toBe("end_turn");
  });

  it("answers a scripted tool_use block; a tool_result gets the next answer", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const ask = { model: "m", max_tokens: 64, messages: [{ role: "user", content: WEATHER_QUESTION }] };
    const first = (await (await post(`${url}/v1/messages`, ask)).json()) as Any;
    expect(first.content).toEqual([
      { type: "tool_use", id: "toolu_fake_1_1", name: "get_weather", input: { city: "Paris" } },
    ]);
    expect(first.stop_reason).toBe("tool_use");
    const messages = [
      ...ask.messages,
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_fake_1_1", content: "sunny" }] },
    ];
    const second = (await (await post(`${url}/v1/messages`, { ...ask, messages })).json()) as Any;
    expect(second.content).toEqual([{ type: "text", text: "It is sunny in Paris." }]);
  });

  it("streams a tool_use block with its input as input_json_delta pieces", async () => {
    const { url } = await startFakeLlm({ script: WEATHER_SCRIPT });
    const ask = {
      model: "m",
      max_tokens: 64,
      stream: true,
      messages: [{ role: "user", content: WEATHER_QUESTION }],
    };
    const data = (await readEvents(await post(`${url}/v1/messages`, ask))).events.map(json) as Any[];
    expect(data[1].content_block).toEqual({
      type: "tool_use",
      id: "toolu_fake_1_1",
      name: "get_weather",
      input: {},
    });
    expect(data[2].type).toBe("ping");
    const deltas = data.filter((d) => d.type === "content_block_delta");
    expect(deltas.every((d) => d.delta.type === "input_json_delta")).toBe(true);
    expect(deltas.map((d) => d.delta.partial_json).join("")).toBe(ARGUMENTS);
    expect(data.at(-2).delta.stop_reason).toBe("tool_use");
  });
});

describe("the fake model's routes and errors", () => {
  it("answers /health and /v1/health, and every API with or without the /v1 prefix", async () => {
    const { url } = await startFakeLlm();
    for (const path of ["/health", "/v1/health"]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    }
    const chat = { messages: [{ role: "user", content: "hi" }] };
    expect((await post(`${url}/chat/completions`, chat)).status).toBe(200);
    expect((await post(`${url}/messages`, chat)).status).toBe(200);
    expect((await post(`${url}/responses`, { input: "hi" })).status).toBe(200);
  });

  it("answers 404 for unknown paths and 405 for a GET on an API route", async () => {
    const { url } = await startFakeLlm();
    expect((await fetch(`${url}/v1/files`)).status).toBe(404);
    expect((await fetch(`${url}/v2/messages`)).status).toBe(404);
    const get = await fetch(`${url}/v1/messages`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("answers 400 in each provider's error shape for a body that is not a JSON object or lacks the messages", async () => {
    const { url } = await startFakeLlm();
    const bad = await fetch(`${url}/v1/messages`, { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const list = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: "[]" });
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ error: { type: "invalid_request_error", param: null } });
    const noInput = await post(`${url}/v1/responses`, { model: "m" });
    expect(noInput.status).toBe(400);
    expect(((await noInput.json()) as Any).error.message).toMatch(/^input:/);
  });

  it("answers 413 for a body over 10 MiB", async () => {
    const { url } = await startFakeLlm();
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: "x".repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
  });

  it("answers 400 when no script rule matches, and logs the request number and path, never its content", async () => {
    const script = "- when: {user_contains: weather}\n  answer: {text: sunny}\n";
    const { url, log } = await startFakeLlm({ script });
    const secret = "planted-secret-4f1e";
    const response = await post(`${url}/v1/chat/completions`, {
      messages: [{ role: "user", content: secret }],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Any).error.message).toBe(
      "no rule of the fake-llm script matches request 1",
    );
    expect(log).toEqual(["fake-llm: request 1 (POST /v1/chat/completions) matched no script rule"]);
  });

  it("waits --token-delay-ms between two events of a stream", async () => {
    const { url } = await startFakeLlm({ tokenDelayMs: 40 });
    const started = performance.now();
    const response = await post(`${url}/v1/chat/completions`, {
      stream: true,
      messages: [{ role: "user", content: QUESTION }],
    });
    const { events, reads } = await readEvents(response);
    const elapsed = performance.now() - started;
    expect(reads).toBeGreaterThan(1);
    // The role, five words, the finish reason and [DONE]: seven pauses of 40 ms (timers may fire early by a hair).
    expect(events).toHaveLength(8);
    expect(elapsed).toBeGreaterThanOrEqual(7 * 40 * 0.9);
  });
});
