import { describe, expect, it, vi } from "vitest";
import { runScheduled } from "../../src/runtime/run-scheduler.js";

interface Item {
  readonly name: string;
  readonly ports: readonly number[];
}

/**
 * Runs items through the scheduler with tasks that finish in a scrambled order (each waits a
 * few milliseconds of a fake clock, so the order is the same on every machine); records overlaps.
 */
async function simulate(items: readonly Item[], jobs: number, stopAfter = Number.POSITIVE_INFINITY) {
  const holders = new Map<number, string>();
  const order: string[] = [];
  let running = 0;
  let peak = 0;
  let finished = 0;
  const overlaps: string[] = [];
  vi.useFakeTimers();
  try {
    const scheduled = runScheduled(items, {
      jobs,
      stopped: () => finished >= stopAfter,
      run: async (item) => {
        order.push(item.name);
        running += 1;
        peak = Math.max(peak, running);
        for (const port of item.ports) {
          const holder = holders.get(port);
          if (holder !== undefined) overlaps.push(`${holder}+${item.name}@${port}`);
          holders.set(port, item.name);
        }
        await new Promise((resolve) => setTimeout(resolve, (item.name.charCodeAt(1) * 7) % 13));
        for (const port of item.ports) holders.delete(port);
        running -= 1;
        finished += 1;
      },
    });
    await vi.runAllTimersAsync();
    await scheduled;
  } finally {
    vi.useRealTimers();
  }
  return { order, peak, overlaps };
}

describe("the suite scheduler", () => {
  it("never runs two scenarios naming the same fixed port at once, and runs every one", async () => {
    const items: Item[] = [
      { name: "a1", ports: [9001] },
      { name: "b2", ports: [9001] },
      { name: "c3", ports: [9002] },
      { name: "d4", ports: [9001, 9002] },
      { name: "e5", ports: [] },
      { name: "f6", ports: [] },
      { name: "g7", ports: [9002] },
      { name: "h8", ports: [9003] },
    ];
    for (const jobs of [1, 2, 3, 8]) {
      const { order, peak, overlaps } = await simulate(items, jobs);
      expect(overlaps, `jobs ${jobs}`).toEqual([]);
      expect([...order].sort()).toEqual(items.map((item) => item.name));
      expect(peak).toBeLessThanOrEqual(jobs);
    }
  });

  it("lets later scenarios with free ports go first instead of waiting", async () => {
    const { order } = await simulate(
      [
        { name: "a1", ports: [9001] },
        { name: "b2", ports: [9001] },
        { name: "c3", ports: [] },
      ],
      2,
    );
    expect(order.slice(0, 2)).toEqual(["a1", "c3"]);
  });

  it("starts nothing more once stopped, and lets the running ones finish", async () => {
    const items = Array.from({ length: 6 }, (_, index) => ({ name: `x${index}`, ports: [] }));
    const { order } = await simulate(items, 2, 1);
    expect(order.length).toBeLessThan(6);
    expect(order.length).toBeGreaterThanOrEqual(2);
  });
});
