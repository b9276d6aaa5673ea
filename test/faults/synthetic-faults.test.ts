import { describe, expect, it } from "vitest";
import { rawExchange, send, sendWithNodeHttp } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  schedule,
  startTestProxy,
  startUpstream,
  target,
} from "../helpers/proxy-harness.js";

const CUSTOMER = target("/customer/*", "GET");

describe("synthetic faults", () => {
  it("http_error answers the configured status with the fixed JSON body and never reaches the upstream", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(503, schedule(2), CUSTOMER), sink);

    const first = await send(`${proxy.url}/customer/1`);
    const second = await send(`${proxy.url}/customer/1`);
    const third = await send(`${proxy.url}/customer/1`);

    expect([first.status, second.status, third.status]).toEqual([200, 503, 200]);
    expect(second.headers["x-agent-chaos-fault"]).toBe("http_error");
    expect(second.headers["content-type"]).toBe("application/json");
    expect(second.text).toBe('{"error":"injected by Agent Chaos"}');
    expect(upstream.hits).toHaveLength(2);

    const [injected] = sink.ofKind("FAULT_INJECTED");
    expect(injected).toEqual({
      kind: "FAULT_INJECTED",
      operation_id: expect.any(String),
      fault_type: "http_error",
      parameters: { status_code: 503 },
    });
    expect(sink.ofKind("OPERATION_FAILED")).toEqual([
      {
        kind: "OPERATION_FAILED",
        operation_id: injected?.operation_id,
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        failure_kind: "injected_http_error",
        status_code: 503,
        fault_related: true,
      },
    ]);
    expect(sink.kindsOf(injected?.operation_id ?? "")).toEqual([
      "OPERATION_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_FAILED",
    ]);
  });

  it("http_rate_limit answers 429 with an integer Retry-After and the fixed body, byte for byte", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.rateLimit(0, schedule(1), CUSTOMER), sink);

    const { bytes } = await rawExchange(
      proxy.url,
      "GET /customer/7 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
    );
    const text = bytes.toString("latin1");
    const [head = "", body] = text.split("\r\n\r\n");

    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 429 Too Many Requests");
    expect(head).toMatch(/\r\nRetry-After: 0\r\n/);
    expect(head).toMatch(/\r\nX-Agent-Chaos-Fault: http_rate_limit\r\n/);
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(body).toBe('{"error": "rate limited by Agent Chaos"}');
    expect(upstream.hits).toHaveLength(0);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({ retry_after_seconds: 0 });
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_rate_limit",
      status_code: 429,
      fault_related: true,
    });
  });

  it("http_malformed_json answers 200 with the brace-less body and records a failure, never a success", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.malformedJson(schedule(1), CUSTOMER), sink);

    const response = await send(`${proxy.url}/customer/9`);

    expect(response.status).toBe(200);
    expect(response.headers["x-agent-chaos-fault"]).toBe("http_malformed_json");
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.text).toBe('{"error":"injected by Agent Chaos"');
    expect(upstream.hits).toHaveLength(0);
    expect(sink.ofKind("FAULT_INJECTED")[0]?.parameters).toEqual({});
    expect(sink.ofKind("OPERATION_SUCCEEDED")).toEqual([]);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_malformed_json",
      status_code: 200,
      fault_related: true,
    });
  });

  it("http_disconnect closes the connection without a single byte and records the failure first", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(
      upstream.url,
      legacyFaults.disconnect(schedule(1, 2, 3), CUSTOMER),
      sink,
    );

    const raw = await rawExchange(proxy.url, "GET /customer/1 HTTP/1.1\r\nHost: test\r\n\r\n");
    const viaNode = await sendWithNodeHttp(`${proxy.url}/customer/1`);
    const viaUndici = await send(`${proxy.url}/customer/1`).then(
      () => null,
      (error: unknown) => error,
    );

    expect(raw.bytes).toHaveLength(0);
    expect("error" in viaNode && viaNode.error.code).toMatch(
      /ECONNRESET|EPIPE|ERR_SOCKET_CLOSED|socket hang up/,
    );
    expect(viaUndici).toBeInstanceOf(Error);
    expect(upstream.hits).toHaveLength(0);

    const failed = sink.ofKind("OPERATION_FAILED");
    expect(failed).toHaveLength(3);
    for (const failure of failed) {
      expect(failure).toMatchObject({
        failure_kind: "injected_disconnect",
        status_code: null,
        fault_related: true,
      });
    }
    const [first, second, third] = failed.map((failure) => failure.operation_id);
    expect(sink.kindsOf(first ?? "")).toEqual(["OPERATION_OBSERVED", "FAULT_INJECTED", "OPERATION_FAILED"]);
    // The later ones are retries of the first (still unresolved) failure, and are selected themselves.
    expect(sink.kindsOf(second ?? "")).toEqual([
      "OPERATION_OBSERVED",
      "RETRY_OBSERVED",
      "FAULT_INJECTED",
      "OPERATION_FAILED",
    ]);
    expect(
      sink
        .ofKind("RETRY_OBSERVED")
        .map((retry) => [retry.operation_id, retry.retry_of_operation_id, retry.attempt]),
    ).toEqual([
      [second, first, 2],
      [third, first, 3],
    ]);
    expect(sink.ofKind("FAULT_INJECTED").map((event) => event.parameters)).toEqual([{}, {}, {}]);
  });

  it("counts only matching requests towards the schedule", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(500, schedule(2), CUSTOMER), sink);

    const statuses: number[] = [];
    statuses.push((await send(`${proxy.url}/customer/1`)).status);
    statuses.push((await send(`${proxy.url}/health`)).status);
    statuses.push((await send(`${proxy.url}/customer/1`, { method: "POST", body: "{}" })).status);
    statuses.push((await send(`${proxy.url}/customer/2?token=abc`)).status);

    expect(statuses).toEqual([200, 200, 200, 500]);
  });
});
