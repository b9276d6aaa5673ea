import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Recorder } from "../../src/events/recorder.js";
import { recorderTriggerClock } from "../../src/runtime/trigger-clock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentchaos-clock-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the clock outages and quotas read in a run", () => {
  it("is the elapsed_ms the events record: WORKLOAD_STARTED's, and the last OPERATION_OBSERVED's", () => {
    const recorder = new Recorder(join(dir, "events.jsonl"), "run-c", 3);
    const clock = recorderTriggerClock(recorder);
    expect(clock.workloadStartedAt()).toBeNull();
    const started = recorder.emit({ kind: "WORKLOAD_STARTED", name: "agent", pid: 1 });
    expect(clock.workloadStartedAt()).toBe(started.elapsed_ms);
    const observed = recorder.emit({
      kind: "OPERATION_OBSERVED",
      operation_id: "op-1",
      dependency: "llm",
      protocol: "http",
      method: "POST",
      path: "/v1/chat/completions",
      query_hash: null,
      body_hash: "b",
      fingerprint: "f",
      session: null,
      idempotency_key_hash: null,
    });
    expect(clock.observedAt()).toBe(observed.elapsed_ms);
    expect(clock.now()).toBeGreaterThanOrEqual(observed.elapsed_ms);
    recorder.emit({ kind: "WORKLOAD_STARTED", name: "agent", pid: 2 });
    expect(clock.workloadStartedAt()).toBe(started.elapsed_ms);
    recorder.close();
  });
});
