/**
 * The recovery rows of analysis.md (schema 1, and schema 2's `fifo`), computed while the events
 * are read in sequence order. A row stays open while a retry that comes before its chosen one
 * could still succeed; only open rows and their candidate retries are held, plus the ids of the
 * operations that were retried (to notice a second RETRY_OBSERVED for one operation, which the
 * batch rule treats in a way only the whole log can decide).
 */
import { isRecoverySuccess } from "../recovery-evidence.js";
import type { EvidenceRow } from "../types.js";

interface Candidate {
  readonly retryId: string;
  /** The operation it retries (its group). */
  readonly failedId: string;
  readonly fingerprint: string;
  readonly index: number;
  /** `elapsed_ms` of its first qualifying success, once seen. */
  successElapsedMs: number | null;
}

interface Row {
  readonly failedId: string;
  readonly fingerprint: string;
  readonly index: number;
  readonly elapsedMs: number;
  /** Set once decided. */
  decided: EvidenceRow | null;
}

/** The open rows of one failed operation id and the retries that name it. */
interface Group {
  readonly rows: Row[];
  readonly candidates: Candidate[];
}

export class RecoveryRows {
  readonly #rows: Row[] = [];
  readonly #groups = new Map<string, Group>();
  readonly #candidatesByRetryId = new Map<string, Candidate>();
  readonly #retried = new Set<string>();

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

  /** A RETRY_OBSERVED; false when the operation already had one (the log needs the batch rule). */
  retried(operationId: string, retryOf: string, fingerprint: string, index: number): boolean {
    if (this.#retried.has(operationId)) return false;
    this.#retried.add(operationId);
    const group = this.#groups.get(retryOf);
    if (group === undefined) return true;
    const candidate: Candidate = {
      retryId: operationId,
      failedId: retryOf,
      fingerprint,
      index,
      successElapsedMs: null,
    };
    group.candidates.push(candidate);
    this.#candidatesByRetryId.set(operationId, candidate);
    return true;
  }

  /** An OPERATION_SUCCEEDED. */
  succeeded(operationId: string, fingerprint: string, status: number | null, elapsedMs: number): void {
    const candidate = this.#candidatesByRetryId.get(operationId);
    if (candidate === undefined || candidate.successElapsedMs !== null) return;
    if (candidate.fingerprint !== fingerprint || !isRecoverySuccess(status)) return;
    candidate.successElapsedMs = elapsedMs;
    const group = this.#groups.get(candidate.failedId);
    if (group !== undefined) this.#settle(candidate.failedId, group);
  }

  /** Every row in sequence order; open rows resolved as if the log ended here. Pure. */
  rows(): EvidenceRow[] {
    const final = new Map<Row, EvidenceRow>();
    for (const group of this.#groups.values()) decide(group, true, (row, decided) => final.set(row, decided));
    return this.#rows.map((row) => row.decided ?? (final.get(row) as EvidenceRow));
  }

  /** Decides what can be decided now; drops the group once every row is decided. */
  #settle(failedId: string, group: Group): void {
    decide(group, false, (row, decided) => {
      row.decided = decided;
    });
    if (group.rows.every((row) => row.decided !== null)) {
      this.#groups.delete(failedId);
      for (const candidate of group.candidates) this.#candidatesByRetryId.delete(candidate.retryId);
    }
  }
}

/**
 * The rows of one group in order, as the batch rule takes them: each row the first candidate
 * after it, with its fingerprint, not taken by an earlier row, that has a qualifying success.
 * With `final` false a candidate without a success yet may still get one, so a row that would
 * have to skip it stays open, and so does every later row of the group.
 */
function decide(group: Group, final: boolean, settle: (row: Row, decided: EvidenceRow) => void): void {
  const used = new Set<Candidate>();
  for (const row of group.rows) {
    let chosen: Candidate | null = null;
    let open = false;
    for (const candidate of group.candidates) {
      if (candidate.index <= row.index || candidate.fingerprint !== row.fingerprint || used.has(candidate))
        continue;
      if (candidate.successElapsedMs !== null) {
        chosen = candidate;
        break;
      }
      if (!final) {
        open = true;
        break;
      }
    }
    // Until the log ends, a row without a chosen retry may still get one.
    if (open || (chosen === null && !final)) return;
    if (chosen !== null) used.add(chosen);
    settle(
      row,
      chosen === null
        ? { failed_operation_id: row.failedId, retry_operation_id: null, recovery_latency_ms: null }
        : {
            failed_operation_id: row.failedId,
            retry_operation_id: chosen.retryId,
            recovery_latency_ms: Math.max(0, (chosen.successElapsedMs as number) - row.elapsedMs),
          },
    );
  }
}
