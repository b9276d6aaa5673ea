import { describe, expect, it, vi } from "vitest";
import { faults, MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { send } from "../helpers/proxy-client.js";
import { onCleanup, startUpstream } from "../helpers/proxy-harness.js";

/** The retry_after_ms the proxy records for an upstream 503 with these headers. */
async function recorded(headers: Record<string, string>): Promise<number | null | undefined> {
  const upstream = await startUpstream((_request, response) => {
    response.writeHead(503, headers).end();
  });
  const sink = new MemorySink();
  const proxy = await startFaultProxy(upstream.url, [], sink);
  await send(`${proxy.url}/v1/chat/completions`, { method: "POST", body: "{}" });
  return sink.ofKind("OPERATION_FAILED")[0]?.retry_after_ms;
}

describe("retry_after_ms on an upstream failure, through the proxy", () => {
  it("records Retry-After seconds, 0 included, and prefers retry-after-ms", async () => {
    expect(await recorded({ "Retry-After": "2" })).toBe(2000);
    expect(await recorded({ "Retry-After": "0" })).toBe(0);
    expect(await recorded({ "retry-after-ms": "1200", "Retry-After": "5" })).toBe(1200);
  });

  it("records an HTTP-date Retry-After as the time left when the response was sent", async () => {
    // The clock stands still on a whole second (dates have whole seconds), so what is left is exact.
    const now = Date.UTC(2030, 0, 2, 3, 4, 5);
    vi.useFakeTimers({ toFake: ["Date"], now });
    onCleanup(() => {
      vi.useRealTimers();
    });
    expect(await recorded({ "Retry-After": new Date(now + 10_000).toUTCString() })).toBe(10_000);
    expect(await recorded({ "Retry-After": new Date(now - 60_000).toUTCString() })).toBe(0);
  });

  it("records null for a malformed Retry-After and for a response that asks for nothing", async () => {
    expect(await recorded({ "Retry-After": "soon" })).toBeNull();
    expect(await recorded({ "Retry-After": "1.5" })).toBeNull();
    expect(await recorded({ "retry-after-ms": "-3" })).toBeNull();
    expect(await recorded({})).toBeNull();
  });

  it("records the wait an injected provider error asks for, never reaching the upstream", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const fault = faults.llmError({ provider: "openai", statusCode: 429, retryAfterMs: 1200 });
    const proxy = await startFaultProxy(upstream.url, [fault], sink);
    const response = await send(`${proxy.url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(429);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_llm_error",
      retry_after_ms: 1200,
    });
    expect(upstream.hits).toHaveLength(0);
  });
});
