import { describe, expect, it } from "vitest";
import { faults, MemorySink, rawGet, startFaultProxy } from "../helpers/fault-proxy.js";
import { startUpstream } from "../helpers/proxy-harness.js";

/** status → [openai type, openai code, anthropic type] (docs/faults.md). */
const TABLE: Record<number, [string, string, string]> = {
  400: ["invalid_request_error", "null", "invalid_request_error"],
  401: ["invalid_request_error", '"invalid_api_key"', "authentication_error"],
  403: ["invalid_request_error", "null", "permission_error"],
  404: ["invalid_request_error", "null", "not_found_error"],
  413: ["invalid_request_error", "null", "request_too_large"],
  429: ["requests", '"rate_limit_exceeded"', "rate_limit_error"],
  500: ["server_error", "null", "api_error"],
  529: ["server_error", "null", "overloaded_error"],
  // other 4xx and 5xx
  402: ["invalid_request_error", "null", "invalid_request_error"],
  422: ["invalid_request_error", "null", "invalid_request_error"],
  499: ["invalid_request_error", "null", "invalid_request_error"],
  502: ["server_error", "null", "api_error"],
  503: ["server_error", "null", "api_error"],
  599: ["server_error", "null", "api_error"],
};

/** Header lines of a raw response head, without the status line. */
function headerLines(head: string): string[] {
  return head.split("\r\n").slice(1);
}

describe("http_llm_error", () => {
  for (const [status, [openaiType, openaiCode, anthropicType]] of Object.entries(TABLE)) {
    it(`answers ${status} with the exact OpenAI and Anthropic bodies`, async () => {
      const upstream = await startUpstream();
      for (const provider of ["openai", "anthropic"] as const) {
        const proxy = await startFaultProxy(
          upstream.url,
          [faults.llmError({ provider, statusCode: Number(status) })],
          new MemorySink(),
        );
        const { head, body } = await rawGet(proxy.url, "/v1/messages");
        expect(head.split("\r\n")[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        expect(body).toBe(
          provider === "openai"
            ? `{"error":{"message":"Injected by Agent Chaos","type":"${openaiType}","param":null,"code":${openaiCode}}}`
            : `{"type":"error","error":{"type":"${anthropicType}","message":"Injected by Agent Chaos"}}`,
        );
        expect(headerLines(head)).toEqual(
          expect.arrayContaining([
            "Content-Type: application/json",
            "X-Agent-Chaos-Fault: http_llm_error",
            `Content-Length: ${Buffer.byteLength(body)}`,
          ]),
        );
        expect(head.toLowerCase()).not.toMatch(/retry-after|x-should-retry/);
      }
      expect(upstream.hits).toHaveLength(0);
    });
  }

  it("sends Retry-After, retry-after-ms and x-should-retry exactly when configured, and records the wait", async () => {
    const upstream = await startUpstream();
    const sink = new MemorySink();
    const proxy = await startFaultProxy(
      upstream.url,
      [
        faults.llmError({
          provider: "anthropic",
          statusCode: 529,
          retryAfterSeconds: 2,
          retryAfterMs: 1500,
          shouldRetry: false,
        }),
      ],
      sink,
    );

    const { head } = await rawGet(proxy.url, "/v1/messages");

    expect(headerLines(head)).toEqual(
      expect.arrayContaining(["Retry-After: 2", "retry-after-ms: 1500", "x-should-retry: false"]),
    );
    expect(sink.ofKind("FAULT_INJECTED")[0]).toEqual({
      kind: "FAULT_INJECTED",
      operation_id: expect.any(String),
      fault_id: "f1",
      fault_type: "http_llm_error",
      parameters: { status_code: 529, retry_after_seconds: 2, retry_after_ms: 1500 },
    });
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: expect.any(String),
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        failure_kind: "injected_llm_error",
        status_code: 529,
        fault_related: true,
        retry_after_ms: 1500,
        upstream_status: null,
        rpc_error_code: null,
        relayed_events: null,
      },
    ]);
    expect(upstream.hits).toHaveLength(0);
  });

  it("records Retry-After seconds as the wait when retry-after-ms is not configured, and none without either", async () => {
    const upstream = await startUpstream();
    const seconds = new MemorySink();
    const none = new MemorySink();
    const withSeconds = await startFaultProxy(
      upstream.url,
      [faults.llmError({ provider: "openai", statusCode: 429, retryAfterSeconds: 3, shouldRetry: true })],
      seconds,
    );
    const without = await startFaultProxy(
      upstream.url,
      [faults.llmError({ provider: "openai", statusCode: 500 })],
      none,
    );

    const { head } = await rawGet(withSeconds.url, "/v1/chat/completions");
    await rawGet(without.url, "/v1/chat/completions");

    expect(headerLines(head)).toEqual(expect.arrayContaining(["Retry-After: 3", "x-should-retry: true"]));
    expect(head).not.toContain("retry-after-ms");
    expect(seconds.ofKind("OPERATION_FAILED")[0]?.retry_after_ms).toBe(3000);
    expect(seconds.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({
      status_code: 429,
      retry_after_seconds: 3,
    });
    expect(none.ofKind("OPERATION_FAILED")[0]?.retry_after_ms).toBeNull();
    expect(none.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ status_code: 500 });
  });
});
