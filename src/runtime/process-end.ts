import { MAX_TIMER_MS } from "../support/timer-limit.js";

/** How the wait for a supervised process ended. */
export type ProcessEnd = "exited" | "timeout" | "interrupted" | "hung";

/**
 * Waits for the first of: the process exited, its time limit passed (a limit past what a Node
 * timer keeps is clamped to it), the run was interrupted, or `hung` resolved. The timer and the
 * interruption listener are gone when it returns.
 */
export async function firstEnd(
  exited: Promise<unknown>,
  limitSeconds: number,
  interrupt: AbortSignal,
  hung: Promise<unknown> | null = null,
): Promise<ProcessEnd> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const ends: Promise<ProcessEnd>[] = [
    exited.then(() => "exited"),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.min(limitSeconds * 1000, MAX_TIMER_MS));
    }),
    new Promise((resolve) => {
      onAbort = () => resolve("interrupted");
      if (interrupt.aborted) onAbort();
      else interrupt.addEventListener("abort", onAbort, { once: true });
    }),
  ];
  if (hung !== null) ends.push(hung.then(() => "hung"));
  try {
    return await Promise.race(ends);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) interrupt.removeEventListener("abort", onAbort);
  }
}
