/**
 * The streaming analysis's operation labels (`llm POST /v1/chat/completions #1`): each
 * operation gets its label when observed; only the labels of operations a diagnostic may name
 * are kept once the operation is closed (see analysis-stream.ts), so plain successes cost none.
 */
import { labelMethod, OperationOrdinals, operationLabel, printableLabel } from "../events/operation-label.js";
import type { OperationObservedPayload } from "../events/types.js";

export class KeptLabels {
  readonly #ordinals = new OperationOrdinals();
  readonly #kept = new Map<string, string>();

  /** The label of an operation being observed (the next ordinal of its kind). */
  labelOf(observed: OperationObservedPayload): string {
    const k = this.#ordinals.next(observed);
    return operationLabel({
      dependency: observed.dependency,
      method: labelMethod(observed),
      path: observed.path,
      k,
    });
  }

  keep(operationId: string, label: string): void {
    this.#kept.set(operationId, printableLabel(label));
  }

  /** How diagnostics name an operation: its kept label, else its id. */
  readonly label = (operationId: string): string => this.#kept.get(operationId) ?? operationId;
}
