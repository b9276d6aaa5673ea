/** A new operation recognised as a retry of an earlier unresolved fault-related failure. */
export interface RetryLink {
  readonly retryOf: string;
  /** 2 for the first retry of that failure, 3 for the next, and so on. */
  readonly attempt: number;
}

interface FailureEntry {
  readonly operationId: string;
  readonly fingerprint: string;
  retries: number;
}

/**
 * Retry correlation (docs/evidence.md, retry correlation, rules 1–5): per fingerprint, a FIFO of unresolved
 * fault-related failures. Pure and synchronous; the proxy calls it from one tick at a time,
 * which makes it safe under concurrent requests.
 */
export class RetryCorrelation {
  readonly #queues = new Map<string, FailureEntry[]>();
  /** Operation id of a pending retry -> the failure it retries. */
  readonly #pending = new Map<string, FailureEntry>();

  /** Rule 2: a new operation whose fingerprint has a non-empty queue retries the oldest entry. */
  observe(operationId: string, fingerprint: string): RetryLink | null {
    const oldest = this.#queues.get(fingerprint)?.[0];
    if (oldest === undefined) return null;
    oldest.retries += 1;
    this.#pending.set(operationId, oldest);
    return { retryOf: oldest.operationId, attempt: oldest.retries + 1 };
  }

  /** Rules 1 and 4: a failed retry leaves its entry queued; a fault-related failure joins the back. */
  failed(operationId: string, fingerprint: string, faultRelated: boolean): void {
    this.#pending.delete(operationId);
    if (!faultRelated) return;
    const entry: FailureEntry = { operationId, fingerprint, retries: 0 };
    const queue = this.#queues.get(fingerprint);
    if (queue === undefined) this.#queues.set(fingerprint, [entry]);
    else queue.push(entry);
  }

  /** Rules 3 and 5: a successful retry resolves the one entry it retried, if still unresolved. */
  succeeded(operationId: string): void {
    const entry = this.#pending.get(operationId);
    if (entry === undefined) return;
    this.#pending.delete(operationId);
    const queue = this.#queues.get(entry.fingerprint);
    const index = queue?.indexOf(entry) ?? -1;
    if (queue === undefined || index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(entry.fingerprint);
  }

  /** Operation ids of the unresolved failures of one fingerprint, oldest first. */
  unresolved(fingerprint: string): string[] {
    return (this.#queues.get(fingerprint) ?? []).map((entry) => entry.operationId);
  }
}
