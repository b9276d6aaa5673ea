/**
 * `llm_misbehave` on answers it cannot rewrite: a non-2xx upstream, a body of another API's shape,
 * a body that is not JSON. The answer reaches the client byte for byte and the selection is
 * recorded as not applied, reason `not_applicable`.
 */
import { describe, expect, it } from "vitest";
import type { MisbehaveKind, MisbehaveProvider } from "../../../src/scenario/model-faults.js";
import { MemorySink, startFaultProxy } from "../../helpers/fault-proxy.js";
import { send } from "../../helpers/proxy-client.js";
import { startUpstream } from "../../helpers/proxy-harness.js";
import { misbehave } from "./harness.js";

const ANTHROPIC_ANSWER =
  '{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}';
const CHAT_ERROR = '{"error":{"message":"boom","type":"server_error","param":null,"code":null}}';

async function answerThrough(
  provider: MisbehaveProvider,
  kind: MisbehaveKind,
  status: number,
  contentType: string,
  body: string,
) {
  const upstream = await startUpstream((_request, response) => {
    response.writeHead(status, { "Content-Type": contentType }).end(body);
  });
  const sink = new MemorySink();
  const proxy = await startFaultProxy(upstream.url, [misbehave(provider, kind)], sink);
  const response = await send(`${proxy.url}/v1/chat/completions`, { method: "POST", body: "{}" });
  return { response, sink };
}

describe("llm_misbehave on an answer it cannot rewrite", () => {
  it("a non-2xx upstream answer is relayed untouched and recorded not_applicable", async () => {
    const { response, sink } = await answerThrough("openai", "empty", 500, "application/json", CHAT_ERROR);
    expect([response.status, response.body.toString()]).toEqual([500, CHAT_ERROR]);
    expect(sink.ofKind("FAULT_NOT_APPLIED").map((event) => event.reason)).toEqual(["not_applicable"]);
    expect(sink.ofKind("OPERATION_FAILED").map((event) => event.failure_kind)).toEqual([
      "upstream_http_error",
    ]);
  });

  it("another API's answer is relayed untouched and recorded not_applicable", async () => {
    const { response, sink } = await answerThrough(
      "openai",
      "empty",
      200,
      "application/json",
      ANTHROPIC_ANSWER,
    );
    expect([response.status, response.body.toString()]).toEqual([200, ANTHROPIC_ANSWER]);
    expect(sink.ofKind("FAULT_NOT_APPLIED").map((event) => event.reason)).toEqual(["not_applicable"]);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(1);
  });

  it("a body that is not JSON is relayed untouched and recorded not_applicable", async () => {
    const { response, sink } = await answerThrough("anthropic", "refusal", 200, "text/plain", "hello");
    expect([response.status, response.body.toString()]).toEqual([200, "hello"]);
    expect(sink.ofKind("FAULT_NOT_APPLIED").map((event) => event.reason)).toEqual(["not_applicable"]);
  });
});
