import { beforeAll } from "vitest";

/**
 * Starts a file's runs before its tests, a few at a time, and hands each test its run's result.
 * For files whose runs mostly wait (hung agents stopped at `max_ms`, outage windows, honoured
 * `Retry-After` waits): their waits overlap instead of adding up. Every run has ended before the
 * first test starts, so the per-test cleanup of running CLIs (`testFolder`) never meets one. A run
 * that fails is reported by the test that reads it, not by the hook. A key not named up front is
 * run when a test first asks for it.
 */
export function runsAhead<K extends string, T>(
  keys: readonly K[],
  run: (key: K) => Promise<T>,
  options: { readonly concurrency?: number; readonly timeoutMs?: number } = {},
): (key: K) => Promise<T> {
  const results = new Map<K, Promise<T>>();
  const start = (key: K): Promise<T> => {
    const pending = run(key);
    results.set(key, pending);
    return pending;
  };
  beforeAll(async () => {
    const queue = [...new Set(keys)];
    const lane = async (): Promise<void> => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        await start(key).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 3 }, lane));
  }, options.timeoutMs ?? 240_000);
  return (key) => results.get(key) ?? start(key);
}
