import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Failure, type FlakyFront, startFlakyFront } from "./helpers/flaky-front.js";
import { runProgram, startFakeLlm, stopAll } from "./helpers/programs.js";

/** One fake LLM for the file (it answers each request on its own, whoever sent it). */
let llmUrl = "";
beforeAll(async () => {
  llmUrl = (await startFakeLlm()).url;
});
afterAll(stopAll);

const fronts: FlakyFront[] = [];
afterEach(async () => {
  await Promise.all(fronts.splice(0).map((front) => front.close()));
});

const ANSWER_LINE = "Answer: Echo: Say hello to Agent Chaos";
const AGENTS = [
  { sdk: "openai", script: "llm-agents/openai-agent.mjs", path: "/v1/chat/completions", overloaded: 503 },
  { sdk: "anthropic", script: "llm-agents/anthropic-agent.mjs", path: "/v1/messages", overloaded: 529 },
] as const;

/**
 * Asks the SDK to call again after 10 ms: it honours `retry-after-ms`, so a test about whether
 * and how it retries does not wait out its default backoff (0.5 s, then 1 s).
 */
const SOON = { "retry-after-ms": "10" };

async function front(failures: Failure[]): Promise<FlakyFront> {
  const started = await startFlakyFront(llmUrl, failures);
  fronts.push(started);
  return started;
}

describe.each(AGENTS)("the $sdk example agent", ({ script, path, overloaded }) => {
  it("gets the canned answer from the fake LLM in one plain completion", async () => {
    const result = await runProgram(script, { LLM_API_URL: llmUrl, LLM_MODE: "complete" });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([ANSWER_LINE]);
  });

  it("gets the canned answer streamed in more than one chunk", async () => {
    const result = await runProgram(script, {
      LLM_API_URL: "",
      AGENTCHAOS_PROXY_URL: llmUrl,
      LLM_MODE: "stream",
    });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(ANSWER_LINE);
    const chunks = Number(/^Streamed chunks: (\d+)$/.exec(result.lines[1] ?? "")?.[1]);
    expect(chunks).toBeGreaterThan(1);
  });

  it(`is retried by its SDK after a ${overloaded}, with the same body and x-stainless-retry-count 1`, async () => {
    const server = await front([{ status: overloaded, headers: SOON }]);
    const result = await runProgram(script, { LLM_API_URL: server.url });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([ANSWER_LINE]);
    expect(server.seen.map((r) => r.path)).toEqual([path, path]);
    expect(server.seen[1]?.body).toBe(server.seen[0]?.body);
    expect(server.seen.map((r) => r.headers["x-stainless-retry-count"])).toEqual(["0", "1"]);
  });

  it("makes three attempts by default, then exits 1 printing only the error class", async () => {
    const failure = { status: 500, headers: SOON };
    const server = await front([failure, failure, failure]);
    const result = await runProgram(script, { LLM_API_URL: server.url });
    expect(result.code).toBe(1);
    expect(server.seen).toHaveLength(3);
    expect(result.stderr).toMatch(/: InternalServerError\n$/);
    expect(result.stderr).not.toContain(server.url);
  });
});

/**
 * How both agents retry a 429 with Retry-After, and how the openai agent retries a dropped
 * connection and makes one attempt with LLM_MAX_RETRIES=0, is read from the runs of the bundled
 * examples that inject those faults (test/e2e/llm-examples.test.ts); the anthropic agent has no
 * example for the last two, so they run here.
 */
describe("the anthropic example agent", () => {
  const script = "llm-agents/anthropic-agent.mjs";

  it("is retried by its SDK after a dropped connection", async () => {
    const server = await front([{ drop: true }]);
    const result = await runProgram(script, { LLM_API_URL: server.url });
    expect(result.code).toBe(0);
    expect(server.seen).toHaveLength(2);
  });

  it("makes a single attempt with LLM_MAX_RETRIES=0", async () => {
    const server = await front([{ status: 529 }]);
    const result = await runProgram(script, { LLM_API_URL: server.url, LLM_MAX_RETRIES: "0" });
    expect(result.code).toBe(1);
    expect(server.seen).toHaveLength(1);
  });
});

describe("the example agents' usage errors", () => {
  it.each(AGENTS)("the $sdk agent exits 2 without a URL to talk to", async ({ script }) => {
    const result = await runProgram(script, { LLM_API_URL: "", AGENTCHAOS_PROXY_URL: "" });
    expect(result.code).toBe(2);
  });
});
