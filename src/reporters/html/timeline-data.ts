/**
 * What the run page's timeline is drawn from: every operation of a run of at most
 * `DETAIL_LIMIT` operations, or, for a longer run, per-lane counts in `BUCKETS` time buckets.
 * The counts come from `OperationColumns`, a few numbers per operation in typed arrays, so a run
 * of a million operations costs tens of megabytes, never an object per operation.
 */

import { entryOf } from "../../analysis/map-entry.js";

export const DETAIL_LIMIT = 400;
export const BUCKETS = 160;

export interface OperationView {
  readonly id: string;
  /** How a person reads it: `llm POST /v1/chat/completions #1` (see docs/explore.md). */
  readonly label: string;
  readonly lane: string;
  readonly method: string;
  readonly path: string;
  readonly start: number;
  /** Elapsed ms of its terminal event, or null when it has none. */
  readonly end: number | null;
  readonly outcome: "succeeded" | "failed" | "open";
  readonly status: number | null;
  readonly failureKind: string | null;
  /** The fault that acted on it: its id (schema 2) or its type (schema 1, which has no ids). */
  readonly injected: string | null;
  readonly retryOf: string | null;
}

/** One lane's operations counted per bucket of their start time. */
export interface LaneBuckets {
  readonly count: number;
  readonly total: readonly number[];
  readonly failed: readonly number[];
  /** Per bucket, the injections by fault (first injected first), or undefined. */
  readonly injected: readonly (ReadonlyMap<string, number> | undefined)[];
}

export interface TimelineData {
  readonly operationCount: number;
  /** Lanes of the operations, in the order their first operation was observed. */
  readonly lanes: readonly string[];
  /** Elapsed ms of the last WORKLOAD_COMPLETED (open operations are drawn up to it). */
  readonly workloadEnd: number | null;
  /** The operations' time span (first start, last end), null without operations. */
  readonly span: { readonly from: number; readonly to: number } | null;
  /** Every operation in observation order, when there are at most `DETAIL_LIMIT`; else null. */
  readonly operations: readonly OperationView[] | null;
  /** Per lane, when there are more than `DETAIL_LIMIT` operations; else null. */
  readonly buckets: ReadonlyMap<string, LaneBuckets> | null;
}

const OUTCOMES = ["open", "succeeded", "failed"] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * Per operation, in observation order: lane, start, outcome and injected fault, as numbers (17
 * bytes); of the ends only the last is kept. Rows are added when an operation is observed and
 * completed when it ends (once: an operation's end is never changed).
 */
export class OperationColumns {
  #start = new Float64Array(1024);
  #lane = new Int32Array(1024);
  #outcome = new Uint8Array(1024);
  /** Index into `#faults`, -1 for none. */
  #injected = new Int32Array(1024);
  #size = 0;
  #firstStart = Number.POSITIVE_INFINITY;
  #lastEnd = Number.NEGATIVE_INFINITY;
  readonly #lanes = new Map<string, number>();
  readonly #faults = new Map<string, number>();

  get size(): number {
    return this.#size;
  }

  /** Lane names in the order of their first operation. */
  get lanes(): string[] {
    return [...this.#lanes.keys()];
  }

  /** Adds an open operation; returns its row. */
  add(lane: string, start: number): number {
    if (this.#size === this.#start.length) this.#grow();
    const row = this.#size++;
    this.#lane[row] = entryOf(this.#lanes, lane, () => this.#lanes.size);
    this.#start[row] = start;
    this.#firstStart = Math.min(this.#firstStart, start);
    this.#outcome[row] = 0;
    this.#injected[row] = -1;
    return row;
  }

  inject(row: number, fault: string): void {
    this.#injected[row] = entryOf(this.#faults, fault, () => this.#faults.size);
  }

  end(row: number, at: number, outcome: Outcome): void {
    this.#lastEnd = Math.max(this.#lastEnd, at);
    this.#outcome[row] = OUTCOMES.indexOf(outcome);
  }

  /** First start and last end (an open operation ends at `workloadEnd`, else at its start). */
  span(workloadEnd: number | null): { from: number; to: number } | null {
    if (this.#size === 0) return null;
    let to = this.#lastEnd;
    for (let row = 0; row < this.#size; row++) {
      if (this.#outcome[row] === 0) to = Math.max(to, workloadEnd ?? (this.#start[row] as number));
    }
    return { from: this.#firstStart, to };
  }

  /** The operations counted per lane and bucket over [from, to] (see `bucketOf`). */
  buckets(from: number, to: number): Map<string, LaneBuckets> {
    const faults = [...this.#faults.keys()];
    const lanes = [...this.#lanes.keys()].map(() => ({
      count: 0,
      total: new Array<number>(BUCKETS).fill(0),
      failed: new Array<number>(BUCKETS).fill(0),
      injected: new Array<Map<string, number> | undefined>(BUCKETS),
    }));
    for (let row = 0; row < this.#size; row++) {
      const lane = lanes[this.#lane[row] as number] as (typeof lanes)[number];
      lane.count += 1;
      const bucket = bucketOf(this.#start[row] as number, from, to);
      lane.total[bucket] = (lane.total[bucket] as number) + 1;
      if (this.#outcome[row] === 2) lane.failed[bucket] = (lane.failed[bucket] as number) + 1;
      const fault = this.#injected[row] as number;
      if (fault !== -1) {
        const id = faults[fault] as string;
        const counts = lane.injected[bucket] ?? new Map<string, number>();
        counts.set(id, (counts.get(id) ?? 0) + 1);
        lane.injected[bucket] = counts;
      }
    }
    return new Map([...this.#lanes.keys()].map((name, index) => [name, lanes[index] as LaneBuckets]));
  }

  #grow(): void {
    const length = this.#start.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(length);
      next.set(old);
      return next;
    };
    this.#start = grow(this.#start, (n) => new Float64Array(n));
    this.#lane = grow(this.#lane, (n) => new Int32Array(n));
    this.#outcome = grow(this.#outcome, (n) => new Uint8Array(n));
    this.#injected = grow(this.#injected, (n) => new Int32Array(n));
  }
}

/** The time scale of the timeline: the span, widened to at least 1 ms. */
export function scaleSpan(from: number, to: number): { from: number; to: number } {
  return { from, to: to <= from ? from + 1 : to };
}

/** The bucket of an operation starting at `start` on the scale [from, to]. */
export function bucketOf(start: number, from: number, to: number): number {
  return Math.min(BUCKETS - 1, Math.floor(((start - from) / (to - from)) * BUCKETS));
}

/** The timeline of a run's operations, given in observation order. */
export function timelineOf(operations: readonly OperationView[], workloadEnd: number | null): TimelineData {
  const columns = new OperationColumns();
  for (const operation of operations) {
    const row = columns.add(operation.lane, operation.start);
    if (operation.injected !== null) columns.inject(row, operation.injected);
    if (operation.end !== null) columns.end(row, operation.end, operation.outcome);
  }
  return timelineOfColumns(columns, workloadEnd, operations.length <= DETAIL_LIMIT ? operations : null);
}

/** The timeline of `columns`; `operations` are the same operations in full, when kept. */
export function timelineOfColumns(
  columns: OperationColumns,
  workloadEnd: number | null,
  operations: readonly OperationView[] | null,
): TimelineData {
  const span = columns.span(workloadEnd);
  const detail = columns.size <= DETAIL_LIMIT;
  let buckets: Map<string, LaneBuckets> | null = null;
  if (!detail && span !== null) {
    const scale = scaleSpan(span.from, span.to);
    buckets = columns.buckets(scale.from, scale.to);
  }
  return {
    operationCount: columns.size,
    lanes: columns.lanes,
    workloadEnd,
    span,
    operations: detail ? operations : null,
    buckets,
  };
}
