import type { QuotaTrigger } from "../scenario/types.js";
import type { TriggerClock, TriggerState } from "./types.js";

/**
 * A sliding-window quota (docs/triggers.md). The window at time `t` holds what was counted in
 * `(t - perMs, t]`: one entry per request let through (`requests`), or per answer's tokens
 * (`tokens`, counted when the usage arrives). A request observed while the window's sum is at
 * or above the limit is selected, and a selected request is never counted.
 */
export function createQuotaState(trigger: QuotaTrigger, clock: TriggerClock): TriggerState {
  const window = new SlidingSum(trigger.perMs);
  let lastDecisionAt = 0;
  return {
    decide() {
      const now = clock.observedAt();
      lastDecisionAt = now;
      window.evict(now);
      if (window.sum >= trigger.limit) return true;
      if (trigger.unit === "requests") window.add(now, 1);
      return false;
    },
    countTokens:
      trigger.unit === "tokens"
        ? (tokens) => {
            if (tokens > 0) window.add(clock.now(), tokens);
          }
        : null,
    secondsUntilRoom: () => Math.ceil(window.msUntilBelow(trigger.limit, lastDecisionAt) / 1000),
  };
}

/** Timed amounts, oldest first, with their running sum. */
class SlidingSum {
  readonly #perMs: number;
  #times: number[] = [];
  #amounts: number[] = [];
  #head = 0;
  sum = 0;

  constructor(perMs: number) {
    this.#perMs = perMs;
  }

  add(at: number, amount: number): void {
    this.#times.push(at);
    this.#amounts.push(amount);
    this.sum += amount;
  }

  /** Drops what left the window by `now` (an entry counted at `a` leaves at `a + perMs`). */
  evict(now: number): void {
    while (this.#head < this.#times.length && (this.#times[this.#head] as number) + this.#perMs <= now) {
      this.sum -= this.#amounts[this.#head] as number;
      this.#head += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#amounts = this.#amounts.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Milliseconds from `now` until the sum falls below `limit` as entries leave (0 when it is below). */
  msUntilBelow(limit: number, now: number): number {
    let sum = this.sum;
    for (let i = this.#head; i < this.#times.length && sum >= limit; i++) {
      sum -= this.#amounts[i] as number;
      if (sum < limit) return Math.max(0, (this.#times[i] as number) + this.#perMs - now);
    }
    return 0;
  }
}
