import type { InjectionDetails } from "../../events/operation.js";
import type { NotAppliedReason } from "../../events/types.js";
import type { FaultCanary } from "../types.js";
import type { CanaryBook } from "./canary-book.js";

/** What a fault canary records through: the selected operation. */
interface SelectedOperation {
  recordInjection(details: InjectionDetails): void;
  notApplied(faultId: string, reason: NotAppliedReason): void;
}

/** The canary `fault` writes into `operation`'s answer: a corruption fault's in a run with canaries, else null. */
export function canaryOf(
  book: CanaryBook | null,
  fault: { readonly id: string; readonly deferredInjection?: InjectionDetails },
  operation: SelectedOperation,
): FaultCanary | null {
  const deferred = fault.deferredInjection;
  return book === null || deferred === undefined
    ? null
    : faultCanary(book, fault.id, deferred.pointer, operation);
}

/** The canary of one corruption fault acting on one operation (HTTP proxy, MCP stdio and HTTP). */
export function faultCanary(
  book: CanaryBook,
  faultId: string,
  pointer: string | null,
  operation: SelectedOperation,
): FaultCanary {
  // Whoever tells first (the response, or the terminal event's guard) is the one recorded.
  let told = false;
  return {
    values: book.values(faultId),
    replaced(type, resolved) {
      if (told) return;
      told = true;
      operation.recordInjection({ pointer: pointer ?? resolved ?? null, canaryType: type });
      book.arm(faultId, type);
    },
    notReplaced(reason) {
      if (told) return;
      told = true;
      operation.recordInjection({ pointer, canaryType: null });
      operation.notApplied(faultId, reason);
    },
  };
}
