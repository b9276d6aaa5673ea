/**
 * The operations of a run as the analysis holds them while reading: each operation's first event
 * of each kind, and retry chains — a union-find over the operations that retried or were retried
 * (docs/evidence.md, "Recovery modes"). A chain keeps its members' first injections, failures,
 * successes and retries in sequence order, which is what the recovery rows and the retry checks
 * ask of it.
 */
import type { At, OperationFacts, Position } from "../checks/types.js";
import type {
  OperationFailedPayload,
  OperationObservedPayload,
  OperationSucceededPayload,
} from "../events/types.js";
import type { CountedWindow } from "./counted-window.js";

export interface Operation extends OperationFacts {
  observed: At<OperationObservedPayload> | null;
  failure: At<OperationFailedPayload> | null;
  success: At<OperationSucceededPayload> | null;
  /** Its first RETRY_OBSERVED (as the retrying operation). */
  retry: Position | null;
  /** How diagnostics name it (`llm POST /v1/chat/completions #1`), from its first observation. */
  label: string | null;
  /** Its first FAULT_INJECTED. */
  injected: { readonly index: number; readonly faultId: string } | null;
  /** How many FAULT_INJECTED and OPERATION_FAILED events name it. */
  injections: number;
  failures: number;
  /** Only its OPERATION_OBSERVED so far. */
  fresh: boolean;
  /** A terminal event was read (a bounded stream then holds it only as a retry target). */
  closed: boolean;
  /** Failed as `request_body_too_large` (the counting rule of observations). */
  oversized: boolean;
  chain: Chain | null;
  /** The probability windows that counted it. */
  countedBy: CountedWindow[] | null;
}

export function newOperation(id: string, order: number): Operation {
  return {
    id,
    order,
    observed: null,
    failure: null,
    success: null,
    retry: null,
    label: null,
    injected: null,
    injections: 0,
    failures: 0,
    fresh: false,
    closed: false,
    oversized: false,
    chain: null,
    countedBy: null,
  };
}

/** Whether an operation's first success counts as a recovery: any MCP success, else status < 400. */
export function recovered(op: Operation): boolean {
  const status = op.success?.payload.status_code ?? null;
  return (
    op.success !== null && (op.observed?.payload.protocol === "mcp" || (status !== null && status < 400))
  );
}

/**
 * The fault a failure at `index` belongs to: the fault injected into its operation, else the one
 * injected latest, before the failure, into another operation of its retry chain.
 */
export function faultOf(op: Operation, index: number): string | null {
  return op.injected?.faultId ?? op.chain?.root().latestBefore("injected", index)?.injected?.faultId ?? null;
}

type Fact = "injected" | "failure" | "success" | "retry";
const FACTS: readonly Fact[] = ["injected", "failure", "success", "retry"];

const at = (op: Operation, fact: Fact): number => (op[fact] as { index: number }).index;

/** The position of the first entry whose fact comes after `index` (lists are in sequence order). */
function firstAfter(list: readonly Operation[], fact: Fact, index: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (at(list[middle] as Operation, fact) > index) high = middle;
    else low = middle + 1;
  }
  return low;
}

function merge(a: Operation[], b: Operation[], fact: Fact): Operation[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  if (at(b[0] as Operation, fact) > at(a.at(-1) as Operation, fact)) return a.concat(b);
  return a.concat(b).sort((x, y) => at(x, fact) - at(y, fact));
}

export class Chain {
  #parent: Chain = this;
  size = 1;
  /** The member named first. */
  first: Operation;
  readonly #lists: Record<Fact, Operation[]> = { injected: [], failure: [], success: [], retry: [] };

  /** A chain of one operation, holding the facts it already has. */
  constructor(op: Operation) {
    this.first = op;
    for (const fact of FACTS) if (op[fact] !== null) this.#lists[fact].push(op);
  }

  /** The set's representative (path compression). */
  root(): Chain {
    let root: Chain = this;
    while (root.#parent !== root) root = root.#parent;
    for (let node: Chain = this; node !== root; ) {
      const next = node.#parent;
      node.#parent = root;
      node = next;
    }
    return root;
  }

  get isRoot(): boolean {
    return this.#parent === this;
  }

  /** Joins two chains; returns the root. */
  static union(a: Chain, b: Chain): Chain {
    const x = a.root();
    const y = b.root();
    if (x === y) return x;
    const [big, small] = x.size >= y.size ? [x, y] : [y, x];
    small.#parent = big;
    big.size += small.size;
    if (small.first.order < big.first.order) big.first = small.first;
    for (const fact of FACTS) {
      big.#lists[fact] = merge(big.#lists[fact], small.#lists[fact], fact);
      small.#lists[fact] = [];
    }
    return big;
  }

  /** A member's first event of one kind was read (called on the root, in sequence order). */
  add(fact: Fact, op: Operation): void {
    const list = this.#lists[fact];
    const last = list.at(-1);
    if (last === undefined || at(last, fact) < at(op, fact)) list.push(op);
    else list.splice(firstAfter(list, fact, at(op, fact)), 0, op);
  }

  /** The member whose first injection or failure comes latest before `index`, if any. */
  latestBefore(fact: "injected" | "failure", index: number): Operation | null {
    const list = this.#lists[fact];
    return list[firstAfter(list, fact, index - 1) - 1] ?? null;
  }

  /** The member whose first success comes first after `index` and counts as a recovery. */
  recoveredAfter(index: number): Operation | null {
    const list = this.#lists.success;
    for (let i = firstAfter(list, "success", index); i < list.length; i++) {
      const op = list[i] as Operation;
      if (recovered(op)) return op;
    }
    return null;
  }

  /** The member whose RETRY_OBSERVED comes first after `index`, if any. */
  retriedAfter(index: number): Operation | null {
    const list = this.#lists.retry;
    return list[firstAfter(list, "retry", index)] ?? null;
  }
}
