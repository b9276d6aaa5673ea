import type { InjectedFault, InjectionDetails, Operation, OperationIdentity } from "../events/operation.js";

/** What the selection reads of an armed fault (HTTP or MCP). */
export interface SelectableFault extends InjectedFault {
  matches(identity: Pick<OperationIdentity, "method" | "path" | "protocol">): boolean;
  decide(): boolean;
  /** A token quota only (else null): counts the tokens of a request it let through. */
  readonly countTokens: ((tokens: number) => void) | null;
  /** A corruption fault: its FAULT_INJECTED waits until it has acted on the response. */
  readonly deferredInjection?: InjectionDetails;
}

export interface Selection<T> {
  /** The first fault that selected the operation, recorded as injected; null when none did. */
  readonly chosen: T | null;
  /** The token quotas that let the operation through: each counts the tokens of its answer. */
  readonly tokenQuotas: readonly SelectableFault[];
}

const NONE: readonly SelectableFault[] = [];
/** Nothing selected and no quota to count: shared, so the common case builds no result. */
const NOTHING: Selection<never> = { chosen: null, tokenQuotas: NONE };

/** What a newer request with the same fingerprint ends: a held or delayed twin (docs/faults.md). */
export interface Superseding {
  supersede(fingerprint: string): void;
}

/**
 * The selection section of every path (the full pipeline, the fast lane, MCP over HTTP and over
 * stdio), in one tick with no await, so that the recorded order of the observations is the
 * occurrence order (docs/triggers.md, "Counting"): observe → end a held twin → link the retry →
 * count and decide (`selectAmong`). The fast lane passes no candidates: it takes only requests
 * no fault targets.
 */
export function selectOperation<T>(
  operation: Operation,
  candidates: readonly T[],
  faultOf: (candidate: T) => SelectableFault,
  twins: Superseding,
): Selection<T> {
  operation.observe();
  twins.supersede(operation.fingerprint);
  operation.linkRetry();
  return candidates.length === 0 ? NOTHING : selectAmong(operation, candidates, faultOf);
}

/**
 * The one decision of docs/triggers.md ("Counting"), in one tick: every fault whose target
 * matches counts the operation; the first selected acts (`FAULT_INJECTED`) and any later
 * selection is recorded as not applied (`another_fault_acted`). The caller has observed the
 * operation and linked its retry already.
 */
export function selectAmong<T>(
  operation: Operation,
  candidates: readonly T[],
  faultOf: (candidate: T) => SelectableFault,
): Selection<T> {
  let chosen: T | null = null;
  const outvoted: SelectableFault[] = [];
  let tokenQuotas = NONE;
  for (const candidate of candidates) {
    const fault = faultOf(candidate);
    if (!fault.matches(operation.identity)) continue;
    if (!fault.decide()) {
      if (fault.countTokens !== null) tokenQuotas = [...tokenQuotas, fault];
      continue;
    }
    if (chosen === null) chosen = candidate;
    else outvoted.push(fault);
  }
  if (chosen !== null) {
    const fault = faultOf(chosen);
    if (fault.deferredInjection !== undefined) operation.injectedLater(fault, fault.deferredInjection);
    else operation.injected(fault);
  }
  for (const fault of outvoted) operation.notApplied(fault.id, "another_fault_acted");
  return chosen === null && tokenQuotas === NONE ? NOTHING : { chosen, tokenQuotas };
}
