/**
 * `llm_misbehave` `missing_finish` on a Responses API stream that the upstream ends as
 * incomplete: the client still receives a `response.completed` event, with no status, no usage
 * and no reason for being incomplete.
 */
import OpenAI from "openai";
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { MemorySink, startFaultProxy } from "../../helpers/fault-proxy.js";
import { startUpstream } from "../../helpers/proxy-harness.js";
import { APPLIED, evidence, misbehave } from "./harness.js";

function responseObject(status: string, extra: Record<string, unknown>) {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status,
    model: "fake-gpt",
    output: [],
    incomplete_details: null,
    usage: null,
    ...extra,
  };
}

const MESSAGE = {
  id: "msg_1",
  type: "message",
  status: "incomplete",
  role: "assistant",
  content: [{ type: "output_text", text: "Par", annotations: [] }],
};

/** A Responses stream cut short by the model's output limit, as the API sends it. */
const INCOMPLETE_STREAM = [
  { type: "response.created", response: responseObject("in_progress", {}) },
  { type: "response.output_item.added", output_index: 0, item: { ...MESSAGE, content: [] } },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Par" },
  { type: "response.output_item.done", output_index: 0, item: MESSAGE },
  {
    type: "response.incomplete",
    response: responseObject("incomplete", {
      output: [MESSAGE],
      incomplete_details: { reason: "max_output_tokens" },
      usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
    }),
  },
]
  .map(
    (event, index) =>
      `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
  )
  .join("");

describe("llm_misbehave openai_responses missing_finish on an incomplete answer", () => {
  it("ends the stream with a response.completed that has no status, no usage and no incomplete reason", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" }).end(INCOMPLETE_STREAM);
    });
    const sink = new MemorySink();
    const proxy = await startFaultProxy(
      upstream.url,
      [misbehave("openai_responses", "missing_finish")],
      sink,
    );
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
    const events = await client.responses.create({ model: "fake-gpt", input: "Paris?", stream: true });
    const types: string[] = [];
    let final: Response | null = null;
    for await (const event of events as AsyncIterable<ResponseStreamEvent>) {
      types.push(event.type);
      if (event.type === "response.completed" || event.type === "response.incomplete") final = event.response;
    }
    expect(types.at(-1)).toBe("response.completed");
    expect(final).not.toBeNull();
    expect({
      status: final?.status ?? null,
      usage: final?.usage ?? null,
      reason: final?.incomplete_details?.reason ?? null,
    }).toEqual({ status: null, usage: null, reason: null });
    expect(evidence(sink)).toEqual(APPLIED);
  });
});
