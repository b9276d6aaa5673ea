import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { send } from "../helpers/proxy-client.js";
import {
  LegacyMemorySink,
  legacyFaults,
  schedule,
  startTestProxy,
  startUpstream,
} from "../helpers/proxy-harness.js";

const MiB = 1024 * 1024;

describe("size limits and upstream failures", () => {
  it("rejects a request body over 10 MiB with 413, never forwards it and never counts it", async () => {
    const upstream = await startUpstream();
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, legacyFaults.error(503, schedule(1)), sink);
    const oversized = Buffer.alloc(10 * MiB + 1, 0x61);

    const rejected = await send(`${proxy.url}/upload`, { method: "POST", body: oversized });
    const atLimit = await send(`${proxy.url}/upload`, { method: "POST", body: Buffer.alloc(10 * MiB, 0x62) });

    expect(rejected.status).toBe(413);
    expect(rejected.headers["content-type"]).toBe("application/json");
    expect(rejected.text).toBe('{"error": "request body exceeds proxy limit"}');
    // The oversized request was not occurrence 1: the next matching request is.
    expect(atLimit.status).toBe(503);
    expect(upstream.hits).toHaveLength(0);

    const [first] = sink.ofKind("OPERATION_OBSERVED");
    expect(first?.body_hash).toBe(createHash("sha256").update(oversized).digest("hex"));
    expect(sink.kindsOf(first?.operation_id ?? "")).toEqual(["OPERATION_OBSERVED", "OPERATION_FAILED"]);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      operation_id: first?.operation_id,
      failure_kind: "request_body_too_large",
      status_code: 413,
      fault_related: false,
    });
  });

  it("answers 502 with only the error class name when the upstream cannot be reached", async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(`http://127.0.0.1:${port}`, null, sink);

    const response = await send(`${proxy.url}/anything`);

    expect(response.status).toBe(502);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.text).toMatch(/^\{"error": "upstream request failed", "detail": "[A-Za-z_$][\w$]*"\}$/);
    expect(response.text).not.toContain(String(port));
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "proxy_error",
      status_code: 502,
      fault_related: false,
    });
  });

  it("answers 502 when the upstream body exceeds 10 MiB and relays one of exactly 10 MiB", async () => {
    const upstream = await startUpstream((request, response) => {
      const size = request.url === "/huge" ? 10 * MiB + 1 : 10 * MiB;
      response.writeHead(200, { "Content-Type": "application/octet-stream" }).end(Buffer.alloc(size, 0x63));
    });
    const sink = new LegacyMemorySink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const huge = await send(`${proxy.url}/huge`);
    const fits = await send(`${proxy.url}/fits`);

    expect(huge.status).toBe(502);
    expect(huge.text).toBe('{"error": "upstream body exceeds proxy limit"}');
    expect(fits.status).toBe(200);
    expect(fits.body.length).toBe(10 * MiB);
    expect(sink.ofKind("OPERATION_FAILED")).toMatchObject([
      { failure_kind: "proxy_error", status_code: 502 },
    ]);
  });
});
