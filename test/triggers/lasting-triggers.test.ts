import { describe, expect, it } from "vitest";
import { UsageReader } from "../../src/proxy/usage-reader.js";
import type { OutageTrigger, QuotaTrigger } from "../../src/scenario/types.js";
import { createTriggerState, type TriggerClock } from "../../src/triggers/index.js";

/** A clock the test moves by hand. */
function manualClock(startedAt: number | null = 0) {
  let now = 0;
  let started = startedAt;
  const clock: TriggerClock = { now: () => now, observedAt: () => now, workloadStartedAt: () => started };
  return {
    clock,
    at(ms: number) {
      now = ms;
    },
    start(ms: number) {
      started = ms;
    },
  };
}

const outage = (startMs: number, durationMs: number): OutageTrigger => ({
  kind: "outage",
  startMs,
  durationMs,
});
const requests = (limit: number, perMs: number): QuotaTrigger => ({
  kind: "quota",
  unit: "requests",
  limit,
  perMs,
});
const tokens = (limit: number, perMs: number): QuotaTrigger => ({
  kind: "quota",
  unit: "tokens",
  limit,
  perMs,
});

describe("outage", () => {
  it("selects exactly the requests observed in [start, start + duration) after the workload started", () => {
    const time = manualClock(null);
    const state = createTriggerState(outage(2000, 3000), time.clock);
    time.at(2500);
    expect(state.decide()).toBe(false); // the workload has not started yet
    time.start(100);
    const at = (ms: number) => {
      time.at(100 + ms);
      return state.decide();
    };
    expect([at(0), at(1999), at(2000), at(3500), at(4999), at(5000), at(9000)]).toEqual([
      false,
      false,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("request quota", () => {
  it("lets `limit` requests through per sliding window and never counts the selected ones", () => {
    const time = manualClock();
    const state = createTriggerState(requests(3, 10_000), time.clock);
    const at = (ms: number) => {
      time.at(ms);
      return state.decide();
    };
    // Counted at 0, 1000, 2000; the ones at 3000 and 9999 are selected and do not count.
    expect([at(0), at(1000), at(2000), at(3000), at(9999)]).toEqual([false, false, false, true, true]);
    // The request counted at 0 leaves the window at 10000: one more may pass.
    expect([at(10_000), at(10_001)]).toEqual([false, true]);
    // At 11000 the one counted at 1000 has left.
    expect(at(11_000)).toBe(false);
  });

  it("tells the seconds until the oldest counted request leaves the window, rounded up", () => {
    const time = manualClock();
    const state = createTriggerState(requests(2, 10_000), time.clock);
    time.at(500);
    state.decide();
    time.at(700);
    state.decide();
    time.at(1_000);
    expect(state.decide()).toBe(true);
    expect(state.secondsUntilRoom?.()).toBe(10); // 500 + 10000 - 1000 = 9500 ms
    time.at(10_400);
    expect(state.decide()).toBe(true);
    expect(state.secondsUntilRoom?.()).toBe(1); // 100 ms
  });
});

describe("token quota", () => {
  it("selects while the tokens counted in the window are at or above the limit", () => {
    const time = manualClock();
    const state = createTriggerState(tokens(100, 60_000), time.clock);
    const count = state.countTokens as (tokens: number) => void;
    expect(state.decide()).toBe(false);
    count(60);
    expect(state.decide()).toBe(false);
    time.at(1_000);
    count(40);
    expect(state.decide()).toBe(true);
    time.at(59_999);
    expect(state.decide()).toBe(true);
    // The 60 tokens of time 0 leave at 60000; 40 remain, under the limit.
    time.at(60_000);
    expect(state.decide()).toBe(false);
  });

  it("has no token counter on a request quota, an outage or an occurrence", () => {
    const { clock } = manualClock();
    expect(createTriggerState(requests(1, 1), clock).countTokens).toBeNull();
    expect(createTriggerState(outage(0, 1), clock).countTokens).toBeNull();
    expect(
      createTriggerState({ kind: "occurrence_schedule", occurrences: [1] }, clock).countTokens,
    ).toBeNull();
  });
});

describe("usage of an answer", () => {
  it("reads OpenAI's total_tokens from a JSON body", () => {
    const reader = new UsageReader(false, 1 << 20);
    reader.feed('{"id":"x","usage":{"prompt_tokens":7,"completion_tokens":5,');
    reader.feed('"total_tokens":12}}');
    expect(reader.end()).toBe(12);
  });

  it("reads Anthropic's input plus output tokens from a JSON body", () => {
    const reader = new UsageReader(false, 1 << 20);
    reader.feed('{"type":"message","usage":{"input_tokens":10,"output_tokens":4}}');
    expect(reader.end()).toBe(14);
  });

  it("counts an Anthropic stream as its usage arrives, split anywhere", () => {
    const reader = new UsageReader(true, 1 << 20);
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}\n\n' +
      'event: message_delta\r\ndata: {"type":"message_delta","usage":{"output_tokens":6}}\r\n\r\n';
    let total = 0;
    for (let i = 0; i < text.length; i += 7) total += reader.feed(text.slice(i, i + 7));
    total += reader.end();
    expect(total).toBe(16);
  });

  it("counts the usage chunk of an OpenAI stream and a Responses response.completed event", () => {
    const chat = new UsageReader(true, 1 << 20);
    const chunks =
      'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"choices":[],"usage":{"total_tokens":9}}\n\ndata: [DONE]\n\n';
    expect(chat.feed(chunks) + chat.end()).toBe(9);
    const responses = new UsageReader(true, 1 << 20);
    const events =
      'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"total_tokens":21}}}\n\n';
    expect(responses.feed(events) + responses.end()).toBe(21);
  });

  it("reads a stream whose lines end with CR alone, split anywhere, as the event-stream format allows", () => {
    const reader = new UsageReader(true, 1 << 20);
    const text =
      'event: message_start\rdata: {"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}\r\r' +
      'event: message_delta\rdata: {"type":"message_delta","usage":{"output_tokens":6}}\r\r';
    let total = 0;
    for (let i = 0; i < text.length; i += 5) total += reader.feed(text.slice(i, i + 5));
    total += reader.end();
    expect(total).toBe(16);
  });

  it("counts nothing for an answer without usage or that is not JSON", () => {
    const reader = new UsageReader(false, 1 << 20);
    reader.feed("not json");
    expect(reader.end()).toBe(0);
  });
});
