import { afterEach, describe, expect, it } from "vitest";
import { faults, MemorySink, startFaultProxy } from "../helpers/fault-proxy.js";
import { runProgram, startServer, stopAll } from "./helpers/programs.js";

afterEach(stopAll);

async function deskBehindLostResponse(): Promise<{ url: string; sink: MemorySink }> {
  const api = await startServer("fake-api.mjs");
  const sink = new MemorySink();
  const proxy = await startFaultProxy(api.url, [faults.responseLost()], sink);
  return { url: proxy.url, sink };
}

describe("the ticket agent", () => {
  it("opens one ticket when nothing goes wrong", async () => {
    const api = await startServer("fake-api.mjs");
    const result = await runProgram("ticket-agent.mjs", { AGENTCHAOS_DESK_URL: api.url });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual(["Opened ticket 1", "Tickets on the server: 1"]);
  });

  it("calls again after a lost response, and the API then holds two tickets", async () => {
    const { url, sink } = await deskBehindLostResponse();
    const result = await runProgram("ticket-agent.mjs", { AGENTCHAOS_DESK_URL: url });
    expect(result.code).toBe(0);
    expect(result.lines).toEqual([
      "Ticket call 1 got no answer; calling again",
      "Opened ticket 2",
      "Tickets on the server: 2",
    ]);
    expect(sink.ofKind("OPERATION_FAILED")[0]).toMatchObject({
      failure_kind: "injected_response_lost",
      upstream_status: 201,
    });
  });

  it("with an Idempotency-Key the repeat gets the first ticket back: one ticket on the server", async () => {
    const { url, sink } = await deskBehindLostResponse();
    const result = await runProgram("ticket-agent.mjs", {
      AGENTCHAOS_DESK_URL: url,
      TICKET_IDEMPOTENCY_KEY: "yes",
    });
    expect(result.code).toBe(0);
    expect(result.lines.slice(1)).toEqual(["Opened ticket 1", "Tickets on the server: 1"]);
    const [first, second] = sink.ofKind("OPERATION_OBSERVED");
    expect(first?.idempotency_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second?.idempotency_key_hash).toBe(first?.idempotency_key_hash);
  });

  it("exits 2 without a URL", async () => {
    const result = await runProgram("ticket-agent.mjs", { AGENTCHAOS_DESK_URL: "" });
    expect(result.code).toBe(2);
  });
});
