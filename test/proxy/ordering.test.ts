import { describe, expect, it } from "vitest";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import type { EventPayload } from "../../src/events/types.js";
import { LegacyMemorySink, startTestProxy, startUpstream } from "../helpers/proxy-harness.js";
import { blockThread, fetchInChild } from "../helpers/proxy-workload.js";

const BLOCK_MS = 400;

/** A sink that stalls the proxy's thread while it records a terminal event. */
class StallingSink extends LegacyMemorySink {
  terminalRecordedAt = 0;

  override emit(payload: EventPayload): LegacyEvent | null {
    const event = super.emit(payload);
    if (payload.kind === "OPERATION_SUCCEEDED" || payload.kind === "OPERATION_FAILED") {
      this.terminalRecordedAt = Date.now();
      blockThread(BLOCK_MS);
    }
    return event;
  }
}

describe("terminal evidence", () => {
  it("is recorded before a buffered response is completed towards a real workload process", async () => {
    const upstream = await startUpstream();
    const sink = new StallingSink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const completedAt = await fetchInChild(`${proxy.url}/customer/1`);

    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(1);
    // Had the response been completed first, the workload would have it while the proxy stalls.
    expect(completedAt).toBeGreaterThanOrEqual(sink.terminalRecordedAt + BLOCK_MS - 50);
  });

  it("is recorded before the end of a streamed response reaches a real workload process", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.end("data: two\n\n"), 30);
    });
    const sink = new StallingSink();
    const proxy = await startTestProxy(upstream.url, null, sink);

    const completedAt = await fetchInChild(`${proxy.url}/stream`);

    expect(sink.ofKind("OPERATION_SUCCEEDED")).toHaveLength(1);
    expect(completedAt).toBeGreaterThanOrEqual(sink.terminalRecordedAt + BLOCK_MS - 50);
  });
});
