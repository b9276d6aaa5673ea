/**
 * The cleanup stack of a test: what it started (servers, processes, clients) is stopped after
 * it, even when it fails. The stack is emptied after every test of every file by
 * test/setup/cleanups.ts, a setup file: a hook registered by a shared module would only be
 * registered for the first file that loads it when files share a worker.
 */
const cleanups: (() => Promise<void> | void)[] = [];

/** Runs `fn` after the current test, even when it fails (last registered runs first). */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

/** Runs and forgets every registered cleanup, the last registered first. */
export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()?.();
}
