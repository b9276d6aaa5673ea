/**
 * The recovery rows of schema 1's rule (schema 2's `recovery: fifo`; docs/evidence.md, "Recovery
 * rows"), computed while the events are read in sequence order. Each RETRY_OBSERVED naming a
 * failed operation is a candidate for that operation's rows; its success is the first
 * OPERATION_SUCCEEDED of the retrying operation after it, with its fingerprint and a status below
 * 400 (or none). Rows take candidates in sequence order, each candidate's operation once.
 *
 * With `settleEarly`, a row is decided as soon as no earlier candidate can still succeed, and an
 * operation's rows and candidates are dropped once all of them are decided; that is exact as long
 * as every operation retries at most once (the bounded stream checks it).
 */
import type { EvidenceRow } from "./types.js";

interface Candidate {
  readonly retryId: string;
  /** The operation it names. */
  readonly failedId: string;
  readonly fingerprint: string;
  readonly index: number;
  /** `elapsed_ms` of its success, once read. */
  successElapsedMs: number | null;
}

interface Row {
  readonly failedId: string;
  readonly fingerprint: string;
  readonly index: number;
  readonly elapsedMs: number;
  decided: EvidenceRow | null;
}

/** The rows of one failed operation and the candidates that name it. */
interface Group {
  readonly rows: Row[];
  readonly candidates: Candidate[];
}

export class FifoRows {
  readonly #settleEarly: boolean;
  readonly #rows: Row[] = [];
  readonly #groups = new Map<string, Group>();
  readonly #candidatesOf = new Map<string, Candidate[]>();

  constructor(settleEarly: boolean) {
    this.#settleEarly = settleEarly;
  }

  /** A fault-related OPERATION_FAILED at `index`. */
  failed(operationId: string, fingerprint: string, index: number, elapsedMs: number): void {
    const row: Row = { failedId: operationId, fingerprint, index, elapsedMs, decided: null };
    this.#rows.push(row);
    let group = this.#groups.get(operationId);
    if (group === undefined) {
      group = { rows: [], candidates: [] };
      this.#groups.set(operationId, group);
    }
    group.rows.push(row);
  }

  /** A RETRY_OBSERVED (one naming an operation without a row yet can never resolve one). */
  retried(operationId: string, retryOf: string, fingerprint: string, index: number): void {
    const group = this.#groups.get(retryOf);
    if (group === undefined) return;
    const candidate: Candidate = {
      retryId: operationId,
      failedId: retryOf,
      fingerprint,
      index,
      successElapsedMs: null,
    };
    group.candidates.push(candidate);
    const list = this.#candidatesOf.get(operationId);
    if (list === undefined) this.#candidatesOf.set(operationId, [candidate]);
    else list.push(candidate);
  }

  /** An OPERATION_SUCCEEDED. */
  succeeded(operationId: string, fingerprint: string, status: number | null, elapsedMs: number): void {
    if (status !== null && status >= 400) return;
    for (const candidate of this.#candidatesOf.get(operationId) ?? []) {
      if (candidate.successElapsedMs !== null || candidate.fingerprint !== fingerprint) continue;
      candidate.successElapsedMs = elapsedMs;
      if (this.#settleEarly && this.#groups.has(candidate.failedId)) this.#settle(candidate.failedId);
    }
  }

  /** Every row in sequence order, the open ones decided as if the log ended here. Pure. */
  rows(): EvidenceRow[] {
    const used = new Set<string>();
    for (const row of this.#rows)
      if (row.decided?.retry_operation_id) used.add(row.decided.retry_operation_id);
    return this.#rows.map((row) => {
      if (row.decided !== null) return row.decided;
      const group = this.#groups.get(row.failedId) as Group;
      const chosen = choose(row, group.candidates, used, true) as Candidate | null;
      if (chosen !== null) used.add(chosen.retryId);
      return decision(row, chosen);
    });
  }

  /** Decides the group's rows that can be decided now; drops it once all are. */
  #settle(failedId: string): void {
    const group = this.#groups.get(failedId) as Group;
    const used = new Set<string>();
    for (const row of group.rows) {
      if (row.decided !== null) {
        if (row.decided.retry_operation_id !== null) used.add(row.decided.retry_operation_id);
        continue;
      }
      const chosen = choose(row, group.candidates, used, false);
      if (chosen === "open" || chosen === null) return;
      used.add(chosen.retryId);
      row.decided = decision(row, chosen);
    }
    this.#groups.delete(failedId);
    for (const candidate of group.candidates) this.#candidatesOf.delete(candidate.retryId);
  }
}

/**
 * A row's candidate: the first after the failure, with its fingerprint, not used, that has a
 * success. Before the log ends (`final` false) a candidate without a success yet may still get
 * one, and a row that would have to pass it stays open, as does a row without any candidate.
 */
function choose(
  row: Row,
  candidates: readonly Candidate[],
  used: ReadonlySet<string>,
  final: boolean,
): Candidate | null | "open" {
  for (const candidate of candidates) {
    if (
      candidate.index <= row.index ||
      candidate.fingerprint !== row.fingerprint ||
      used.has(candidate.retryId)
    )
      continue;
    if (candidate.successElapsedMs !== null) return candidate;
    if (!final) return "open";
  }
  return final ? null : "open";
}

function decision(row: Row, chosen: Candidate | null): EvidenceRow {
  return chosen === null
    ? { failed_operation_id: row.failedId, retry_operation_id: null, recovery_latency_ms: null }
    : {
        failed_operation_id: row.failedId,
        retry_operation_id: chosen.retryId,
        recovery_latency_ms: Math.max(0, (chosen.successElapsedMs as number) - row.elapsedMs),
      };
}
