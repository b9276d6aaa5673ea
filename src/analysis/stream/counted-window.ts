/**
 * The operations a probability trigger counted (analysis.md "Probability window"), kept while
 * reading: the ids at the first `end` ordinals (all the evidence needs) and how many there are
 * in all. An operation rejected as `request_body_too_large` is no occurrence; the proxy records
 * that failure right after the operation's OPERATION_OBSERVED, so only the latest counted
 * operation can be taken back. Anything else (`remove` returns false) needs the whole log.
 */
export class CountedWindow {
  readonly #end: number;
  readonly #prefix: string[] = [];
  #total = 0;
  #lastId: string | null = null;

  constructor(endOccurrence: number) {
    this.#end = endOccurrence;
  }

  count(operationId: string): void {
    this.#total += 1;
    if (this.#prefix.length < this.#end) this.#prefix.push(operationId);
    this.#lastId = operationId;
  }

  /** Whether `operationId` is the latest counted operation. */
  isLatest(operationId: string): boolean {
    return this.#lastId === operationId;
  }

  /** Takes back the latest counted operation. */
  removeLatest(): void {
    // Beyond the prefix only the count is kept; otherwise it is the prefix's last entry.
    if (this.#total === this.#prefix.length) this.#prefix.pop();
    this.#total -= 1;
    this.#lastId = null;
  }

  /** How many operations were counted. */
  get total(): number {
    return this.#total;
  }

  /** The ids at ordinals 1 to min(total, end). */
  get prefix(): readonly string[] {
    return this.#prefix;
  }
}
