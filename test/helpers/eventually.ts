/**
 * Waiting in tests without measuring time: `eventually` polls for an outcome, `beforeDeadline`
 * races a promise against a deadline. Both deadlines are generous on purpose: they only turn a
 * broken behaviour (an outcome that never comes, a hang) into a clear failure; they never
 * assert speed. Both use `node:timers`, which `vi.useFakeTimers()` leaves real, so they work in
 * tests that fake the global timers.
 */
import { clearTimeout, setTimeout } from "node:timers";
import { setTimeout as pause } from "node:timers/promises";

/** How long an outcome may take before a test calls it broken. */
const DEFAULT_TIMEOUT_MS = 10_000;
const POLL_MS = 5;

export interface WaitOptions {
  /** Fails after this long (default 10 s). */
  readonly timeoutMs?: number;
  /** What is awaited, for the error message ("every process ended"). */
  readonly what?: string;
}

/** Thrown when an awaited outcome did not come before the deadline. */
export class DeadlineError extends Error {
  readonly code = "TEST_DEADLINE_PASSED";
}

/** Polls `condition` until it holds; throws a `DeadlineError` naming `what` when it never does. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  options: WaitOptions = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
  }, timeoutMs);
  try {
    for (;;) {
      if (await condition()) return;
      if (passed) {
        throw new DeadlineError(`${options.what ?? "the condition"} did not hold within ${timeoutMs} ms`);
      }
      await pause(POLL_MS);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves with `promise`'s value, or throws a `DeadlineError` when it has not settled before
 * the deadline: the way a test says "this does not hang".
 */
export async function beforeDeadline<T>(promise: Promise<T>, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(new DeadlineError(`${options.what ?? "the operation"} did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
