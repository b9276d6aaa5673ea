/**
 * Runs a suite's plans `jobs` at a time, in list order, never two at once that name the same
 * fixed port: a plan whose ports are busy waits, and later plans whose ports are free go first.
 * `stopped()` is asked before each start (interruption, fail-fast); running plans always finish.
 */
export interface Schedulable {
  readonly ports: readonly number[];
}

export async function runScheduled<T extends Schedulable>(
  items: readonly T[],
  options: {
    readonly jobs: number;
    readonly stopped: () => boolean;
    readonly run: (item: T) => Promise<void>;
  },
): Promise<void> {
  const pending = [...items];
  const busy = new Set<number>();
  const running = new Set<Promise<void>>();
  const free = (item: T): boolean => item.ports.every((port) => !busy.has(port));
  for (;;) {
    while (!options.stopped() && running.size < options.jobs) {
      const index = pending.findIndex(free);
      if (index === -1) break;
      const [item] = pending.splice(index, 1) as [T];
      for (const port of item.ports) busy.add(port);
      const task: Promise<void> = options
        .run(item)
        .catch(() => {})
        .finally(() => {
          for (const port of item.ports) busy.delete(port);
          running.delete(task);
        });
      running.add(task);
    }
    if (running.size === 0) return;
    await Promise.race(running);
  }
}
