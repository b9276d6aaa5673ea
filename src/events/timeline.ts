/**
 * The operations of a schema-2 run and their retry chains, indexed once from the events in
 * sequence order (v2/evidence.md). Pure data; the analyzer and the checks read it.
 */
import type {
  AgentChaosEventV2,
  OperationFailedPayloadV2,
  OperationObservedPayloadV2,
  OperationSucceededPayloadV2,
} from "./types-v2.js";

/** Where an event stands: its position in sequence order ("after" compares these) and its time. */
export interface Position {
  readonly index: number;
  readonly elapsedMs: number;
}

export type At<P> = Position & { readonly payload: P };

/** One operation: its first event of each kind (terminal evidence is recorded once). */
export interface OperationRecord {
  readonly id: string;
  observed: At<OperationObservedPayloadV2> | null;
  /** Its RETRY_OBSERVED: the operation it retries. */
  retry: (Position & { readonly retryOf: string }) | null;
  /** The fault of its FAULT_INJECTED. */
  injected: (Position & { readonly faultId: string }) | null;
  failure: At<OperationFailedPayloadV2> | null;
  success: At<OperationSucceededPayloadV2> | null;
}

export interface Timeline {
  /** The events, in sequence order. */
  readonly events: readonly AgentChaosEventV2[];
  /** Every operation any event names, in the order they were first named. */
  readonly operations: ReadonlyMap<string, OperationRecord>;
  /** The members of an operation's retry chain (itself included), in the order first named. */
  chainOf(operationId: string): readonly OperationRecord[];
  /** Every retry chain of two or more operations, in the order of their first member. */
  readonly chains: readonly (readonly OperationRecord[])[];
}

function record(operations: Map<string, OperationRecord>, id: string): OperationRecord {
  let found = operations.get(id);
  if (found === undefined) {
    found = { id, observed: null, retry: null, injected: null, failure: null, success: null };
    operations.set(id, found);
  }
  return found;
}

/** Union-find root of an operation id. */
function rootOf(parent: Map<string, string>, id: string): string {
  let root = id;
  for (let next = parent.get(root); next !== undefined && next !== root; next = parent.get(root)) root = next;
  // Path compression keeps long chains cheap.
  for (let node = id; node !== root; ) {
    const next = parent.get(node) as string;
    parent.set(node, root);
    node = next;
  }
  return root;
}

/** Indexes the events (already in sequence order). */
export function buildTimeline(events: readonly AgentChaosEventV2[]): Timeline {
  const operations = new Map<string, OperationRecord>();
  const parent = new Map<string, string>();
  events.forEach((event, index) => {
    const at = { index, elapsedMs: event.elapsed_ms };
    const { payload } = event;
    switch (payload.kind) {
      case "OPERATION_OBSERVED": {
        const op = record(operations, payload.operation_id);
        op.observed ??= { ...at, payload };
        break;
      }
      case "RETRY_OBSERVED": {
        const op = record(operations, payload.operation_id);
        record(operations, payload.retry_of_operation_id);
        op.retry ??= { ...at, retryOf: payload.retry_of_operation_id };
        const a = rootOf(parent, payload.operation_id);
        const b = rootOf(parent, payload.retry_of_operation_id);
        if (a !== b) parent.set(a, b);
        break;
      }
      case "FAULT_INJECTED": {
        const op = record(operations, payload.operation_id);
        op.injected ??= { ...at, faultId: payload.fault_id };
        break;
      }
      case "OPERATION_FAILED": {
        const op = record(operations, payload.operation_id);
        op.failure ??= { ...at, payload };
        break;
      }
      case "OPERATION_SUCCEEDED": {
        const op = record(operations, payload.operation_id);
        op.success ??= { ...at, payload };
        break;
      }
      default:
        break;
    }
  });

  const members = new Map<string, OperationRecord[]>();
  for (const op of operations.values()) {
    const root = rootOf(parent, op.id);
    const list = members.get(root);
    if (list === undefined) members.set(root, [op]);
    else list.push(op);
  }
  return {
    events,
    operations,
    chainOf: (operationId) => {
      if (!operations.has(operationId)) return [];
      return members.get(rootOf(parent, operationId)) ?? [];
    },
    chains: [...members.values()].filter((chain) => chain.length > 1),
  };
}
