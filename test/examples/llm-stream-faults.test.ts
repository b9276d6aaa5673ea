/**
 * What the official SDKs do under the schema-2 LLM faults, observed through the real proxy in
 * front of the fake LLM: the behaviour the v2 LLM examples and their rows in docs/examples.md rely on.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Fault } from "../../src/scenario/types.js";
import { faults, MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { runProgram, startFakeLlm, stopAll } from "./helpers/programs.js";

afterEach(stopAll);

const OPENAI = "llm-agents/openai-agent.mjs";
const ANTHROPIC = "llm-agents/anthropic-agent.mjs";
const FULL_ANSWER = "Answer: Echo: Say hello to Agent Chaos";

async function behind(fault: Fault, paceMs = 25): Promise<{ url: string; sink: MemorySink }> {
  const llm = await startFakeLlm(["--token-delay-ms", String(paceMs)]);
  const sink = new MemorySink();
  const proxy = await startFaultProxy(llm.url, [fault], sink);
  return { url: proxy.url, sink };
}

describe("official SDKs under mid-stream faults", () => {
  it("openai: a stream cut before [DONE] ends the iteration quietly; the agent prints a partial answer and exits 0", async () => {
    const { url, sink } = await behind(faults.truncate({ afterEvents: 4 }));
    const result = await runProgram(OPENAI, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe("Answer: Echo: Say hello ");
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("openai: an agent that requires a finish_reason calls again and gets the whole answer", async () => {
    const { url, sink } = await behind(faults.truncate({ afterEvents: 4 }));
    const result = await runProgram(OPENAI, {
      LLM_API_URL: url,
      LLM_MODE: "stream",
      LLM_REQUIRE_COMPLETE: "yes",
      LLM_CALL_ATTEMPTS: "2",
      LLM_RETRY_DELAY_MS: "0",
    });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(FULL_ANSWER);
    expect(result.stderr).toContain("call 1 failed (IncompleteStream); calling again");
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: a stream cut before message_stop also ends quietly with a partial answer", async () => {
    const { url } = await behind(faults.truncate({ afterEvents: 4 }));
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe("Answer: Echo: ");
  });

  it("anthropic: an overloaded_error event mid-stream throws, and the SDK never retries a started stream", async () => {
    const { url, sink } = await behind(faults.errorEvent({ afterEvents: 3 }, "anthropic"));
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url, LLM_MODE: "stream" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("anthropic-agent: LLM call failed: APIError\n");
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: an agent that makes the whole call again survives the error event", async () => {
    const { url, sink } = await behind(faults.errorEvent({ afterEvents: 3 }, "anthropic"));
    const result = await runProgram(ANTHROPIC, {
      LLM_API_URL: url,
      LLM_MODE: "stream",
      LLM_CALL_ATTEMPTS: "2",
      LLM_RETRY_DELAY_MS: "0",
    });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(FULL_ANSWER);
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(1);
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

  it("openai: with no idle timeout the SDK waits out a stall and gets the whole answer", async () => {
    const { url, sink } = await behind(faults.stall({ afterEvents: 3 }, 600), 50);
    // The operation outlasts the stall, as the proxy saw it (a lower bound: load only adds time;
    // the agent's own first-to-last spread shrinks when its first events arrive late). Without
    // the stall the nine paced events take about 450 ms.
    const seen = new Map<string, number>();
    const emit = sink.emit.bind(sink);
    sink.emit = (payload) => {
      seen.set(payload.kind, performance.now());
      emit(payload);
    };
    const result = await runProgram(OPENAI, { LLM_API_URL: url, LLM_MODE: "stream" });
    const observed = seen.get("OPERATION_OBSERVED") ?? Number.NaN;
    expect((seen.get("OPERATION_SUCCEEDED") ?? Number.NaN) - observed).toBeGreaterThanOrEqual(600);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(FULL_ANSWER);
    expect(result.stdout).toMatch(/Stream spread ms: \d+/);
    expect(sink.ofKind("OPERATION_SUCCEEDED")[0]).toMatchObject({ fault_related: true, relayed_events: 9 });
  });

  it("openai: an agent with a stream idle timeout gives up on the stall and calls again", async () => {
    const { url, sink } = await behind(faults.stall({ afterEvents: 3 }, 10_000), 50);
    const result = await runProgram(OPENAI, {
      LLM_API_URL: url,
      LLM_MODE: "stream",
      LLM_STREAM_IDLE_MS: "1000",
      LLM_CALL_ATTEMPTS: "2",
      LLM_RETRY_DELAY_MS: "0",
    });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(FULL_ANSWER);
    expect(result.stderr).toContain("call 1 failed (StreamIdle)");
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "client_disconnected",
      relayed_events: 3,
    });
  });
});

describe("official SDKs under provider-shaped errors", () => {
  it("openai: a 429 with retry-after-ms is retried after that many milliseconds", async () => {
    const { url, sink } = await behind(
      faults.llmError({ provider: "openai", statusCode: 429, retryAfterMs: 400 }),
    );
    const started = performance.now();
    const result = await runProgram(OPENAI, { LLM_API_URL: url });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([FULL_ANSWER]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(sink.ofKind("OPERATION_FAILED")[0]?.retry_after_ms).toBe(400);
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: a 529 with x-should-retry: false is not retried", async () => {
    const { url, sink } = await behind(
      faults.llmError({ provider: "anthropic", statusCode: 529, shouldRetry: false }),
    );
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("anthropic-agent: LLM call failed: OverloadedError\n");
    expect(sink.ofKind("OPERATION_OBSERVED")).toHaveLength(1);
  });

  it("anthropic: the same 529 without the header is retried by the SDK", async () => {
    const { url, sink } = await behind(faults.llmError({ provider: "anthropic", statusCode: 529 }));
    const result = await runProgram(ANTHROPIC, { LLM_API_URL: url });
    expect(result.code).toBe(0);
    expect(sink.ofKind("RETRY_OBSERVED")).toHaveLength(1);
  });
});
