/**
 * The waits `fail_fast` measures (docs/checks.md), one implementation for the analysis and for
 * the run that stops a hung workload: each fault-related failure waits, from its terminal
 * event's `elapsed_ms` plus its `retry_after_ms`, until the workload acts — its next
 * OPERATION_OBSERVED (any dependency) or its WORKLOAD_COMPLETED. For `mcp_no_response` the
 * failure is recorded at the injection, so the wait runs from there. A `client_timeout_inferred`
 * failure is recorded when the workload's repeat of the request arrives: it has acted already.
 */
import type { AgentChaosEvent } from "../events/types.js";

/** A failure's wait that ended: the failure, where it stands in sequence order, and the wait. */
export interface EndedSilence {
  readonly operationId: string;
  /** The failure's position in sequence order. */
  readonly index: number;
  readonly waitedMs: number;
  /** Ended by a WORKLOAD_COMPLETED that timed out (not interrupted): the workload never acted. */
  readonly endedByTimeout: boolean;
}

interface Waiting {
  readonly operationId: string;
  readonly index: number;
  /** `elapsed_ms` the wait counts from. */
  readonly since: number;
  /** Whether a stop at the timeout can end it as a finding (see CLOSED_BY_CLIENT). */
  readonly cutShort: boolean;
}

/**
 * Failures the workload's side closed. Stopping a workload at its timeout closes its connections
 * and pipes too, and the proxy may record that before WORKLOAD_COMPLETED, so a stop cutting
 * such a wait short says nothing about the workload (only a wait beyond max_ms does).
 */
const CLOSED_BY_CLIENT: ReadonlySet<string> = new Set(["client_disconnected", "connection_closed"]);

export class Silences {
  #waiting: Waiting[] = [];

  /** Takes the next recorded event; returns the waits it ended (none unless the workload acted). */
  take(event: Pick<AgentChaosEvent, "elapsed_ms" | "payload">, index: number): EndedSilence[] {
    const { payload } = event;
    switch (payload.kind) {
      case "OPERATION_FAILED":
        if (payload.fault_related && payload.failure_kind !== "client_timeout_inferred") {
          const since = event.elapsed_ms + (payload.retry_after_ms ?? 0);
          const cutShort = !CLOSED_BY_CLIENT.has(payload.failure_kind);
          this.#waiting.push({ operationId: payload.operation_id, index, since, cutShort });
        }
        return [];
      case "OPERATION_OBSERVED":
        return this.#acted(event.elapsed_ms, false);
      case "WORKLOAD_COMPLETED":
        return this.#acted(event.elapsed_ms, payload.timed_out && !payload.interrupted);
      default:
        return [];
    }
  }

  /**
   * The first `elapsed_ms` at which a waiting failure has waited more than `maxMs` (a finding is
   * then certain), or null when none waits.
   */
  deadline(maxMs: number): number | null {
    let first: number | null = null;
    for (const { since } of this.#waiting) if (first === null || since < first) first = since;
    return first === null ? null : first + maxMs + 1;
  }

  #acted(elapsedMs: number, timedOut: boolean): EndedSilence[] {
    if (this.#waiting.length === 0) return [];
    const ended = this.#waiting.map(({ operationId, index, since, cutShort }) => ({
      operationId,
      index,
      waitedMs: Math.max(0, elapsedMs - since),
      // A wait that had not started (a Retry-After still being honoured) was not cut short.
      endedByTimeout: timedOut && cutShort && elapsedMs > since,
    }));
    this.#waiting = [];
    return ended;
  }
}
