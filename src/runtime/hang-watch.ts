/**
 * Enforced `fail_fast` at run time (docs/checks.md): fed with every recorded event, it fires as
 * soon as a finding is certain — a fault-related failure whose wait (checks/silences.ts, the
 * rule the analysis applies) has passed `max_ms` with the workload still silent — so that the
 * run stops a hung workload then, not at the scenario's timeout. It reads time on the
 * recorder's clock (`elapsed_ms`), so what it decides is what the recorded events show.
 */
import { Silences } from "../checks/silences.js";
import type { AgentChaosEvent } from "../events/types.js";
import { MAX_TIMER_MS } from "../support/timer-limit.js";

/** The recorder's clock and a timer, injectable for tests. */
export interface WatchClock {
  /** The `elapsed_ms` the next recorded event would get. */
  now(): number;
  /** Calls `fire` after about `ms`; returns how to cancel it. */
  schedule(fire: () => void, ms: number): () => void;
}

// A deadline past what a Node timer keeps is re-armed when the timer fires.

export const systemTimer: WatchClock["schedule"] = (fire, ms) => {
  const timer = setTimeout(fire, Math.min(ms, MAX_TIMER_MS));
  return () => clearTimeout(timer);
};

export class HangWatch {
  /** Resolves once a finding is certain. */
  readonly hung: Promise<void>;
  readonly #maxMs: number;
  readonly #clock: WatchClock;
  readonly #silences = new Silences();
  #deadline: number | null = null;
  #cancel: (() => void) | null = null;
  #done = false;
  #resolve: () => void = () => {};

  constructor(maxMs: number, clock: WatchClock) {
    this.#maxMs = maxMs;
    this.#clock = clock;
    this.hung = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Takes one recorded event (`fail_fast` is a check of schema 2 and later, so of their events). */
  take(event: AgentChaosEvent): void {
    if (this.#done) return;
    this.#silences.take(event, 0);
    this.#arm(this.#silences.deadline(this.#maxMs));
  }

  /** No more watching (the workload ended). */
  stop(): void {
    this.#done = true;
    this.#cancel?.();
    this.#cancel = null;
  }

  #arm(deadline: number | null): void {
    if (deadline === this.#deadline) return;
    this.#cancel?.();
    this.#cancel = null;
    this.#deadline = deadline;
    if (deadline !== null)
      this.#cancel = this.#clock.schedule(() => this.#check(), deadline - this.#clock.now());
  }

  #check(): void {
    this.#cancel = null;
    const deadline = this.#deadline;
    if (this.#done || deadline === null) return;
    const left = deadline - this.#clock.now();
    if (left > 0) {
      this.#cancel = this.#clock.schedule(() => this.#check(), left);
      return;
    }
    this.stop();
    this.#resolve();
  }
}
