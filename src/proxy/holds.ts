import type { FailureKind } from "../events/types.js";
import { cutConnection, type Exchange } from "./exchange.js";

/** The longest delay one Node timer can wait; a longer one would fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Hold {
  readonly exchange: Exchange;
  timer: NodeJS.Timeout | undefined;
  readonly onClose: () => void;
  readonly resolve: (elapsed: boolean) => void;
}

/**
 * Operations held by a latency fault, by fingerprint. A hold ends in one of four ways, each
 * recorded once: the wait elapses (the caller forwards), the workload's connection closes
 * (`client_disconnected`), a request with the same fingerprint arrives
 * (`client_timeout_inferred`), or the proxy closes (`client_disconnected`).
 */
export class HeldOperations {
  readonly #byFingerprint = new Map<string, Hold>();

  hold(exchange: Exchange, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const { operation, response } = exchange;
      if (response.destroyed) {
        operation.fail("client_disconnected", null);
        resolve(false);
        return;
      }
      const hold: Hold = {
        exchange,
        timer: undefined,
        onClose: () => this.#abandon(hold, "client_disconnected"),
        resolve,
      };
      // A wait longer than one timer allows is chained, so every `latency_ms` is honoured.
      const wait = (remaining: number) => {
        hold.timer = setTimeout(
          () => {
            if (remaining > MAX_TIMER_MS) {
              wait(remaining - MAX_TIMER_MS);
              return;
            }
            this.#release(hold);
            resolve(true);
          },
          Math.min(remaining, MAX_TIMER_MS),
        );
      };
      wait(ms);
      response.once("close", hold.onClose);
      this.#byFingerprint.set(operation.fingerprint, hold);
    });
  }

  /** A request with this fingerprint arrived: the operation waiting with it is given up. */
  supersede(fingerprint: string): void {
    const hold = this.#byFingerprint.get(fingerprint);
    if (hold !== undefined) this.#abandon(hold, "client_timeout_inferred");
  }

  /** The proxy is closing: every waiting operation is given up. */
  abandonAll(): void {
    for (const hold of [...this.#byFingerprint.values()]) this.#abandon(hold, "client_disconnected");
  }

  get size(): number {
    return this.#byFingerprint.size;
  }

  #abandon(hold: Hold, failureKind: FailureKind): void {
    if (!this.#release(hold)) return;
    hold.exchange.operation.fail(failureKind, null);
    cutConnection(hold.exchange);
    hold.resolve(false);
  }

  #release(hold: Hold): boolean {
    const fingerprint = hold.exchange.operation.fingerprint;
    if (this.#byFingerprint.get(fingerprint) !== hold) return false;
    this.#byFingerprint.delete(fingerprint);
    clearTimeout(hold.timer);
    hold.exchange.response.off("close", hold.onClose);
    return true;
  }
}
