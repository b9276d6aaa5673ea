import { afterEach, describe, expect, it } from "vitest";
import { startServer, stopAll, stopProgram } from "./helpers/programs.js";

afterEach(stopAll);

const SERVER = "fake-llm/server.mjs";
const QUESTION = "How do agents fail?";
const ANSWER = `Echo: ${QUESTION}`;

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Reads an SSE body; returns its events (the blocks between blank lines) and how many reads it took. */
async function readEvents(response: Response): Promise<{ events: string[]; reads: number }> {
  const decoder = new TextDecoder();
  let text = "";
  let reads = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    reads += 1;
    text += decoder.decode(chunk, { stream: true });
  }
  expect(text.endsWith("\n\n")).toBe(true);
  return { events: text.slice(0, -2).split("\n\n"), reads };
}

function dataOf(event: string): unknown {
  const data = event.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data?.slice("data: ".length) ?? "null");
}

const openAiRequest = {
  model: "fake-gpt",
  messages: [
    { role: "system", content: "be brief" },
    { role: "user", content: QUESTION },
  ],
};
const anthropicRequest = {
  model: "fake-claude",
  max_tokens: 64,
  messages: [{ role: "user", content: [{ type: "text", text: QUESTION }] }],
};

describe("the fake LLM", () => {
  it("answers an OpenAI chat completion with the chat.completion JSON shape", async () => {
    const { url } = await startServer(SERVER);
    const response = await post(`${url}/v1/chat/completions`, openAiRequest);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as { id: string; created: number };
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "fake-gpt",
      choices: [{ index: 0, message: { role: "assistant", content: ANSWER }, finish_reason: "stop" }],
      usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(Number.isInteger(body.created)).toBe(true);
    const again = await (await post(`${url}/v1/chat/completions`, openAiRequest)).json();
    expect(again).toEqual(body);
  });

  it("streams an OpenAI chat completion as data chunks, a finish_reason and [DONE]", async () => {
    const { url } = await startServer(SERVER);
    const response = await post(`${url}/v1/chat/completions`, { ...openAiRequest, stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events, reads } = await readEvents(response);
    expect(reads).toBeGreaterThan(1);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map(dataOf) as {
      object: string;
      choices: { delta: { content?: string }; finish_reason: string | null }[];
    }[];
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(ANSWER);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(1);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([
      ...Array(chunks.length - 1).fill(null),
      "stop",
    ]);
  });

  it("answers an Anthropic message with the message JSON shape", async () => {
    const { url } = await startServer(SERVER);
    const response = await post(`${url}/v1/messages`, anthropicRequest);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string };
    expect(body).toMatchObject({
      type: "message",
      role: "assistant",
      model: "fake-claude",
      content: [{ type: "text", text: ANSWER }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 4, output_tokens: 5 },
    });
    expect(body.id).toMatch(/^msg_/);
  });

  it("streams an Anthropic message as the documented sequence of named events", async () => {
    const { url } = await startServer(SERVER);
    const response = await post(`${url}/v1/messages`, { ...anthropicRequest, stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events, reads } = await readEvents(response);
    expect(reads).toBeGreaterThan(1);
    const names = events.map((event) => /^event: (\S+)\n/.exec(event)?.[1]);
    const deltas = names.filter((name) => name === "content_block_delta").length;
    expect(deltas).toBeGreaterThan(1);
    expect(names).toEqual([
      "message_start",
      "content_block_start",
      ...Array(deltas).fill("content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = events.map(dataOf) as { type: string; delta?: { text?: string; stop_reason?: string } }[];
    expect(data.map((d) => d.type)).toEqual(names);
    expect(data.map((d) => d.delta?.text ?? "").join("")).toBe(ANSWER);
    expect(data.at(-2)?.delta?.stop_reason).toBe("end_turn");
  });

  it("answers health checks, 404 for unknown routes and 400 for a body that is not JSON", async () => {
    const { url } = await startServer(SERVER);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await fetch(`${url}/v1/models`)).status).toBe(404);
    expect((await fetch(`${url}/v1/messages`)).status).toBe(404);
    const bad = await fetch(`${url}/v1/messages`, { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("exits with code 0 on SIGTERM", async () => {
    const { program } = await startServer(SERVER);
    expect(await stopProgram(program)).toEqual({ code: 0, signal: null });
  });
});
