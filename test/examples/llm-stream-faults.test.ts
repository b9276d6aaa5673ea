/**
 * What the official SDKs do under the schema-2 LLM faults, observed through the real proxy in
 * front of the fake LLM: the behaviour the v2 LLM examples and their rows in docs/examples.md rely
 * on. The faults a bundled v2 example already injects are asserted on that example's run
 * (test/e2e/llm-schema-2-examples.test.ts); the ones no example covers are run here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../src/scenario/types.js";
import { faults, MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { runProgram, startFakeLlm, stopAll } from "./helpers/programs.js";

const OPENAI = "llm-agents/openai-agent.mjs";
const ANTHROPIC = "llm-agents/anthropic-agent.mjs";

/** One fake LLM for the file (it answers each request on its own); a fresh proxy per test. */
let llmUrl = "";
beforeAll(async () => {
  llmUrl = (await startFakeLlm(["--token-delay-ms", "25"])).url;
});
afterAll(stopAll);

async function behind(fault: Fault): Promise<{ url: string; sink: MemorySink }> {
  const sink = new MemorySink();
  const proxy = await startFaultProxy(llmUrl, [fault], sink);
  return { url: proxy.url, sink };
}

describe("official SDKs under mid-stream faults", () => {
  it("anthropic: a stream cut before message_stop also ends quietly with a partial answer", async () => {
    const { url } = await behind(faults.truncate({ afterEvents: 4 }));
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe("Answer: Echo: ");
  });

  it("openai: an error object in the stream throws APIError, without a retry", async () => {
    const { url, sink } = await behind(faults.errorEvent({ afterEvents: 2 }, "openai"));
    const result = await runProgram(OPENAI, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("openai-agent: LLM call failed: APIError\n");
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("openai: a connection reset mid-stream is a transport error the SDK does not retry", async () => {
    const { url, sink } = await behind(faults.reset({ afterEvents: 4 }));
    const result = await runProgram(OPENAI, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([]);
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });
});

describe("official SDKs under provider-shaped errors", () => {
  it("anthropic: the same 529 without the header is retried by the SDK", async () => {
    const { url, sink } = await behind(faults.llmError({ provider: "anthropic", statusCode: 529 }));
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url });
    expect(result.code).toBe(0);
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });
});
