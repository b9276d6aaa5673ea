/**
 * The recovery rows of schema 1's rule (schema 2's `recovery: fifo`; docs/evidence.md, "Recovery
 * rows"), gathered while the events are read in sequence order. Each RETRY_OBSERVED naming an
 * operation with a fault-related failure is a candidate for that operation's rows; its success is
 * the first OPERATION_SUCCEEDED of the retrying operation after it, with its fingerprint and a
 * status below 400 (or none). Rows take candidates in sequence order, each retrying operation once.
 */
import { entryOf } from "./map-entry.js";
import type { EvidenceRow } from "./types.js";

interface Candidate {
  readonly retryId: string;
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
}

export class FifoRows {
  readonly #rows: Row[] = [];
  /** The candidates naming each operation with a row. */
  readonly #candidates = new Map<string, Candidate[]>();
  /** The candidates still waiting for a success, by retrying operation. */
  readonly #waiting = new Map<string, Candidate[]>();

  /** A fault-related OPERATION_FAILED at `index`. */
  failed(operationId: string, fingerprint: string, index: number, elapsedMs: number): void {
    this.#rows.push({ failedId: operationId, fingerprint, index, elapsedMs });
    if (!this.#candidates.has(operationId)) this.#candidates.set(operationId, []);
  }

  /** A RETRY_OBSERVED (one naming an operation without a row yet can never resolve one). */
  retried(operationId: string, retryOf: string, fingerprint: string, index: number): void {
    const named = this.#candidates.get(retryOf);
    if (named === undefined) return;
    const candidate: Candidate = { retryId: operationId, fingerprint, index, successElapsedMs: null };
    named.push(candidate);
    entryOf(this.#waiting, operationId, () => []).push(candidate);
  }

  /** An OPERATION_SUCCEEDED. */
  succeeded(operationId: string, fingerprint: string, status: number | null, elapsedMs: number): void {
    const waiting = this.#waiting.get(operationId);
    if (waiting === undefined || (status !== null && status >= 400)) return;
    for (const candidate of waiting)
      if (candidate.fingerprint === fingerprint) candidate.successElapsedMs ??= elapsedMs;
    if (waiting.every((candidate) => candidate.successElapsedMs !== null)) this.#waiting.delete(operationId);
  }

  /** Every row in sequence order, decided as if the log ended here. Pure. */
  rows(): EvidenceRow[] {
    const used = new Set<string>();
    return this.#rows.map((row) => {
      const chosen = (this.#candidates.get(row.failedId) ?? []).find(
        (candidate) =>
          candidate.index > row.index &&
          candidate.fingerprint === row.fingerprint &&
          candidate.successElapsedMs !== null &&
          !used.has(candidate.retryId),
      );
      if (chosen !== undefined) used.add(chosen.retryId);
      const success = chosen?.successElapsedMs ?? null;
      return {
        failed_operation_id: row.failedId,
        retry_operation_id: chosen?.retryId ?? null,
        recovery_latency_ms: success === null ? null : Math.max(0, success - row.elapsedMs),
      };
    });
  }
}
