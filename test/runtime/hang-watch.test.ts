import { describe, expect, it } from "vitest";
import { HangWatch, type WatchClock } from "../../src/runtime/hang-watch.js";
import { runBuilder } from "../helpers/events.js";

/** A clock moved by hand, with timers that fire when it passes them. */
class ManualClock implements WatchClock {
  time = 0;
  #timers: { at: number; fire: () => void }[] = [];
  now = (): number => this.time;
  schedule = (fire: () => void, ms: number): (() => void) => {
    const timer = { at: this.time + Math.max(0, ms), fire };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((entry) => entry !== timer);
    };
  };
  advanceTo(time: number): void {
    this.time = time;
    for (const timer of this.#timers.filter((entry) => entry.at <= time)) {
      this.#timers = this.#timers.filter((entry) => entry !== timer);
      timer.fire();
    }
  }
  get pending(): number {
    return this.#timers.length;
  }
}

function watched(maxMs: number) {
  const clock = new ManualClock();
  const watch = new HangWatch(maxMs, clock);
  let fired = false;
  void watch.hung.then(() => {
    fired = true;
  });
  const settled = async (): Promise<boolean> => {
    await Promise.resolve();
    return fired;
  };
  return { clock, watch, fired: settled };
}

const failure = (retryAfterMs: number | null = null) =>
  runBuilder()
    .setup()
    .at(900)
    .observed("op-1", "fp-a")
    .injected("op-1", "f1")
    .at(1000)
    .failed("op-1", "injected_http_error", { retryAfterMs })
    .events();

describe("the hang watch of an enforced fail_fast", () => {
  it("fires once the workload has been silent for more than max_ms after a fault-related failure", async () => {
    const { clock, watch, fired } = watched(500);
    clock.time = 1000;
    for (const event of failure()) watch.take(event);
    clock.advanceTo(1500);
    expect(await fired()).toBe(false);
    clock.advanceTo(1501);
    expect(await fired()).toBe(true);
  });

  it("waits out the Retry-After first, and a request from the workload disarms it", async () => {
    const { clock, watch, fired } = watched(500);
    clock.time = 1000;
    for (const event of failure(2000)) watch.take(event);
    clock.advanceTo(3400);
    expect(await fired()).toBe(false);
    const [next] = runBuilder().at(3400).observed("op-2", "fp-b").events();
    watch.take(next as NonNullable<typeof next>);
    expect(clock.pending).toBe(0);
    clock.advanceTo(10_000);
    expect(await fired()).toBe(false);
  });

  it("re-arms when its timer fires early on the recorder's clock", async () => {
    const { clock, watch, fired } = watched(500);
    clock.time = 1000;
    for (const event of failure()) watch.take(event);
    const lagging = clock.now;
    clock.now = () => clock.time - 2;
    clock.advanceTo(1501);
    expect(await fired()).toBe(false);
    clock.now = lagging;
    clock.advanceTo(1503);
    expect(await fired()).toBe(true);
  });

  it("stops watching when told", async () => {
    const { clock, watch, fired } = watched(500);
    clock.time = 1000;
    for (const event of failure()) watch.take(event);
    watch.stop();
    clock.advanceTo(5000);
    expect(await fired()).toBe(false);
  });
});
