import type { OperationObservedPayload } from "../events/types.js";
import { compileTarget } from "../scenario/target.js";
import type { PlannedFault } from "./plan.js";

/**
 * The operations a probability trigger counted (docs/evidence.md, "Trigger evidence"), kept
 * while reading: how many there are and the ids at the first ordinals — the first `keep` of them
 * (the window's end is all the evidence needs), or every one. An operation rejected as
 * `request_body_too_large` is taken back; when only a prefix is kept, that is exact unless the
 * operation is in the prefix and more were counted after it (`remove` returns false: the whole
 * log decides). The recorder writes that failure right after the operation is observed.
 */
export class CountedWindow {
  readonly #keep: number;
  #ids: string[] = [];
  #total = 0;

  constructor(keep: number) {
    this.#keep = keep;
  }

  count(operationId: string): void {
    this.#total += 1;
    if (this.#ids.length < this.#keep) this.#ids.push(operationId);
  }

  /** Takes back every count of an operation that was counted; false when that cannot be exact. */
  remove(operationId: string): boolean {
    const kept = this.#ids.filter((id) => id !== operationId);
    const removed = this.#ids.length - kept.length;
    // Not among the kept ids: counted once, after them (only a prefix keeps fewer than all).
    if (removed === 0) {
      this.#total -= 1;
      return true;
    }
    if (this.#total > this.#ids.length) return false;
    this.#ids = kept;
    this.#total -= removed;
    return true;
  }

  /** How many operations were counted. */
  get total(): number {
    return this.#total;
  }

  /** The ids at ordinals 1 to min(total, keep). */
  get ids(): readonly string[] {
    return this.#ids;
  }
}

/** A fault whose trigger counts operations for its evidence: a probability window, an outage or a quota. */
export interface CountingWindow {
  readonly fault: PlannedFault;
  readonly window: CountedWindow;
  readonly matches: (op: OperationObservedPayload) => boolean;
}

/**
 * The counting windows of a plan's faults, in scenario order. A bounded probability window keeps
 * the ids up to its end; outages and quotas keep every counted id (their evidence names ordinals
 * anywhere in the run), as does the whole form.
 */
export function countingWindows(faults: readonly PlannedFault[], whole: boolean): CountingWindow[] {
  return faults.flatMap((fault) => {
    if (fault.trigger.kind === "occurrence_schedule") return [];
    const matches = compileTarget(fault.target);
    const keep =
      whole || fault.trigger.kind !== "seeded_probability"
        ? Number.POSITIVE_INFINITY
        : fault.trigger.window.endOccurrence;
    return [
      {
        fault,
        window: new CountedWindow(keep),
        matches: (op: OperationObservedPayload) => op.dependency === fault.dependency && matches(op),
      },
    ];
  });
}
