/**
 * Retries of corrupted calls (docs/truth.md, corruption faults): a corruption fault with
 * `expect: give_up` also forbids retrying the call it corrupted. That call ended as a success,
 * so no retry link names it; its retry is the next request to the same dependency with the same
 * fingerprint. Rule 4a fails such a run `UNEXPECTED_RETRY`, as for a retried `give_up` failure.
 */
import type { FaultInjectedPayload, OperationObservedPayload } from "../events/types.js";
import { CORRUPTION_TYPES } from "../scenario/corruption.js";
import type { PlannedFault } from "./plan.js";

/** A call a `give_up` corruption fault corrupted, and the first request that repeated it. */
export interface CorruptedRetry {
  readonly faultId: string;
  readonly corruptedOperationId: string;
  readonly retriedBy: string;
}

const keyOf = (observed: Pick<OperationObservedPayload, "dependency" | "fingerprint">) =>
  `${observed.dependency}\u0000${observed.fingerprint}`;

export class CorruptedRetries {
  readonly #giveUp: ReadonlySet<string>;
  /** Corrupted calls not repeated yet, by dependency and fingerprint. */
  readonly #waiting = new Map<string, { readonly faultId: string; readonly operationId: string }>();
  readonly #found: CorruptedRetry[] = [];

  constructor(faults: readonly PlannedFault[]) {
    this.#giveUp = new Set(faults.filter((fault) => fault.expect === "give_up").map((fault) => fault.id));
  }

  /** A FAULT_INJECTED, with the OPERATION_OBSERVED of the operation it names (null if unknown). */
  injected(payload: FaultInjectedPayload, observed: OperationObservedPayload | null): void {
    if (observed === null || !this.#giveUp.has(payload.fault_id)) return;
    if (!CORRUPTION_TYPES.has(payload.fault_type)) return;
    const key = keyOf(observed);
    if (!this.#waiting.has(key))
      this.#waiting.set(key, { faultId: payload.fault_id, operationId: payload.operation_id });
  }

  /** An OPERATION_OBSERVED; true when it repeats a corrupted call (its first repeat). */
  observed(payload: OperationObservedPayload): boolean {
    const key = keyOf(payload);
    const corrupted = this.#waiting.get(key);
    if (corrupted === undefined || corrupted.operationId === payload.operation_id) return false;
    this.#waiting.delete(key);
    this.#found.push({
      faultId: corrupted.faultId,
      corruptedOperationId: corrupted.operationId,
      retriedBy: payload.operation_id,
    });
    return true;
  }

  /** In the order the repeats were observed. */
  found(): readonly CorruptedRetry[] {
    return [...this.#found];
  }
}
