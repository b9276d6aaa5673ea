/** `http_auth_expired` as the official clients and a plain HTTP client see it. */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { AuthExpiredProvider } from "../../src/scenario/model-faults.js";
import type { Fault } from "../../src/scenario/types.js";
import { closeFakeLlmsAfterEach, startFakeLlm } from "../fake-llm/helpers.js";
import { MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";

closeFakeLlmsAfterEach();

function authExpired(provider: AuthExpiredProvider): Fault {
  return {
    id: "f1",
    type: "http_auth_expired",
    dependency: "llm",
    target: { kind: "http", method: "POST", path: "/v1/*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1] },
    expect: "recover",
    provider,
  };
}

async function behind(provider: AuthExpiredProvider) {
  const llm = await startFakeLlm();
  const sink = new MemorySink();
  const proxy = await startFaultProxy(llm.url, [authExpired(provider)], sink);
  return { url: proxy.url, sink };
}

describe("http_auth_expired", () => {
  it("answers 401 with the bearer challenge and the generic body, recorded as injected_auth_expired", async () => {
    const { url, sink } = await behind("generic");
    const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(response.headers.get("x-agent-chaos-fault")).toBe("http_auth_expired");
    expect(await response.text()).toBe('{"error": "token expired"}');
    expect(sink.ofKind("FAULT_INJECTED")[0]).toMatchObject({
      fault_type: "http_auth_expired",
      parameters: {},
    });
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_auth_expired",
      status_code: 401,
      fault_related: true,
    });
  });

  it("openai: the client raises AuthenticationError (no retry); the next call with a fresh key succeeds", async () => {
    const { url, sink } = await behind("openai");
    const request = { model: "fake-gpt", messages: [{ role: "user" as const, content: "Hi" }] };
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-old" });
    const error = await client.chat.completions.create(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key", type: "invalid_request_error" });
    const refreshed = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sk-new" });
    expect((await refreshed.chat.completions.create(request)).choices[0]?.message.content).toBe("Echo: Hi");
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(2);
  });

  it("anthropic: the client raises AuthenticationError with the provider's error type", async () => {
    const { url, sink } = await behind("anthropic");
    const client = new Anthropic({ baseURL: url, apiKey: "sk-ant-old" });
    const error = await client.messages
      .create({ model: "fake-claude", max_tokens: 10, messages: [{ role: "user", content: "Hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      error: { type: "error", error: { type: "authentication_error" } },
    });
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });
});
