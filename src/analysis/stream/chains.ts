/**
 * Retry chains of a schema-2 run (v2/evidence.md) built while reading: a union-find over the
 * operations that retried or were retried, each set carrying what the analysis asks of a chain
 * — its size and first operation, its latest injection, its members' failures in sequence
 * order, and the recovery rows still waiting for a retry or a success in it. An operation joins
 * a chain only through its own RETRY_OBSERVED, before any other event of its own (the stream
 * checks that), so what a chain holds at an event is what the whole-log chain holds before it.
 */

export interface ChainFailure {
  readonly index: number;
  readonly elapsedMs: number;
  readonly operationId: string;
  readonly retryAfterMs: number | null;
}

export interface ChainInjection {
  readonly index: number;
  readonly faultId: string;
}

/** A recovery row the chain may still resolve (mode chain) or retry (`retriedBy`). */
export interface ChainRow {
  readonly failureIndex: number;
  readonly failureElapsedMs: number;
  /** Whether a success in the chain may still resolve it (mode chain, not resolved yet). */
  waitingForSuccess: boolean;
  retryOperationId: string | null;
  recoveryLatencyMs: number | null;
  retriedBy: string | null;
}

export class Chain {
  #parent: Chain = this;
  size = 1;
  firstOrder: number;
  firstId: string;
  /** The dependency of its operations (retries never cross dependencies). */
  dependency = "";
  latestInjection: ChainInjection | null = null;
  failures: ChainFailure[] = [];
  rows: ChainRow[] = [];

  constructor(operationId: string, order: number) {
    this.firstId = operationId;
    this.firstOrder = order;
  }

  /** The set's representative (path compression). */
  root(): Chain {
    let root: Chain = this;
    while (root.#parent !== root) root = root.#parent;
    for (let node: Chain = this; node !== root; ) {
      const next = node.#parent;
      node.#parent = root;
      node = next;
    }
    return root;
  }

  get isRoot(): boolean {
    return this.#parent === this;
  }

  /** Joins two sets; returns the new root. */
  static union(a: Chain, b: Chain): Chain {
    const x = a.root();
    const y = b.root();
    if (x === y) return x;
    const [big, small] = x.size >= y.size ? [x, y] : [y, x];
    small.#parent = big;
    big.size += small.size;
    if (small.firstOrder < big.firstOrder) {
      big.firstOrder = small.firstOrder;
      big.firstId = small.firstId;
    }
    const injections = [big.latestInjection, small.latestInjection].filter((i) => i !== null);
    big.latestInjection = injections.reduce<ChainInjection | null>(
      (latest, injection) => (latest === null || injection.index > latest.index ? injection : latest),
      null,
    );
    big.failures = mergeByIndex(big.failures, small.failures);
    big.rows = big.rows.concat(small.rows);
    small.failures = [];
    small.rows = [];
    small.latestInjection = null;
    return big;
  }

  /** The latest failure of a member before `index`, if any. */
  failureBefore(index: number): ChainFailure | null {
    for (let i = this.failures.length - 1; i >= 0; i--) {
      const failure = this.failures[i] as ChainFailure;
      if (failure.index < index) return failure;
    }
    return null;
  }
}

function mergeByIndex(a: ChainFailure[], b: ChainFailure[]): ChainFailure[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const merged: ChainFailure[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.index < y.index)) {
      merged.push(x as ChainFailure);
      i++;
    } else {
      merged.push(y);
      j++;
    }
  }
  return merged;
}
