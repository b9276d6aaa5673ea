/**
 * `llm_misbehave` `missing_finish` on an Anthropic Messages stream: the stream still ends with
 * `message_stop`, and no event says how the message finished or what it used.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { APPLIED, behindProxy, evidence, GREETING, misbehave } from "./harness.js";

const REQUEST = {
  model: "fake-claude",
  max_tokens: 100,
  stream: true,
  messages: [{ role: "user", content: GREETING }],
};

/** The `data` objects of an event stream, in order. */
function dataObjects(text: string): Record<string, unknown>[] {
  return text
    .split(/\n\n/)
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data:")))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

describe("llm_misbehave anthropic missing_finish", () => {
  it("ends with message_stop and no event carries a stop reason or usage", async () => {
    const { url, sink } = await behindProxy(misbehave("anthropic", "missing_finish"));
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "sk-ant-test" },
      body: JSON.stringify(REQUEST),
    });
    const events = dataObjects(await response.text());
    expect(events.at(-1)?.type).toBe("message_stop");
    const start = events.find((event) => event.type === "message_start");
    expect(start?.message).toMatchObject({ stop_reason: null });
    expect(
      events.filter((event) => "usage" in event || "usage" in ((event.message as object) ?? {})),
    ).toEqual([]);
    expect(evidence(sink)).toEqual(APPLIED);
  });

  it("the official client's final message has no stop reason and no usage", async () => {
    const { url } = await behindProxy(misbehave("anthropic", "missing_finish"));
    const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-test", maxRetries: 0 });
    const { stream: _stream, ...request } = REQUEST;
    const final = await client.messages
      .stream(request as Anthropic.MessageCreateParamsNonStreaming)
      .finalMessage();
    expect({ stop: final.stop_reason, usage: final.usage ?? null }).toEqual({ stop: null, usage: null });
  });
});
