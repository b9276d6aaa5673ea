/**
 * What the run page takes from `events.jsonl` (read loosely: any JSON object per line): the
 * timeline of the operations and the parameters of the first injection. Built in one pass,
 * streaming (`RunEventsStream`, memory bounded by the open operations plus a few numbers per
 * operation) or from every event at once (`runEventsOf`); both give the same result for every
 * log the stream accepts. The stream refuses a log only the whole-log reading can draw (an
 * operation observed twice, an event for an operation after its end), which the recorder never
 * writes; the caller then reads the log whole.
 */
import { IdSet } from "../../analysis/id-set.js";
import { labelMethod, OperationOrdinals, operationLabel } from "../../events/operation-label.js";
import type { JsonObject } from "../saved-run.js";
import {
  DETAIL_LIMIT,
  OperationColumns,
  type OperationView,
  type TimelineData,
  timelineOf,
  timelineOfColumns,
} from "./timeline-data.js";

export interface RunEvents {
  readonly timeline: TimelineData;
  /** `payload.parameters` of the first FAULT_INJECTED event, null when there is none. */
  readonly firstInjectedParameters: JsonObject | null;
}

export const SINGLE_LANE = "dependency";

const obj = (value: unknown): JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
const str = (value: unknown, fallback = ""): string =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
const num = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const strOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

type MutableOperation = { -readonly [K in keyof OperationView]: OperationView[K] };

/** An operation at its OPERATION_OBSERVED; `ordinals` numbers it among those of its kind. */
function observed(
  id: string,
  payload: JsonObject,
  at: number,
  ordinals: OperationOrdinals,
): MutableOperation {
  const identity = {
    dependency: strOrNull(payload.dependency) ?? SINGLE_LANE,
    protocol: payload.protocol === "mcp" ? ("mcp" as const) : ("http" as const),
    method: str(payload.method),
    path: str(payload.path),
  };
  const k = ordinals.next(identity);
  return {
    id,
    label: operationLabel({ ...identity, method: labelMethod(identity), k }),
    lane: strOrNull(payload.dependency) ?? SINGLE_LANE,
    method: str(payload.method),
    path: str(payload.path),
    start: at,
    end: null,
    outcome: "open",
    status: null,
    failureKind: null,
    injected: null,
    retryOf: null,
  };
}

/** The change an operation's event makes to it (FAULT_INJECTED, RETRY_OBSERVED, terminal). */
function apply(operation: MutableOperation, type: unknown, payload: JsonObject, at: number): void {
  if (type === "FAULT_INJECTED") operation.injected = strOrNull(payload.fault_id) ?? str(payload.fault_type);
  else if (type === "RETRY_OBSERVED") operation.retryOf = strOrNull(payload.retry_of_operation_id);
  else if (type === "OPERATION_SUCCEEDED" || type === "OPERATION_FAILED") {
    operation.end = at;
    operation.outcome = type === "OPERATION_SUCCEEDED" ? "succeeded" : "failed";
    operation.status = num(payload.status_code);
    operation.failureKind = strOrNull(payload.failure_kind);
  }
}

const CHANGES = new Set(["FAULT_INJECTED", "RETRY_OBSERVED", "OPERATION_SUCCEEDED", "OPERATION_FAILED"]);

/** What the page reads of every event: the first injection's parameters and the workload's end. */
class EventFacts {
  workloadEnd: number | null = null;
  firstInjectedParameters: JsonObject | null = null;

  /** The event's operation, type, payload and time; null when it changes no operation. */
  take(event: JsonObject): { id: string; type: unknown; payload: JsonObject; at: number } | null {
    const payload = obj(event.payload);
    const at = num(event.elapsed_ms) ?? 0;
    if (event.type === "FAULT_INJECTED" && this.firstInjectedParameters === null)
      this.firstInjectedParameters = obj(payload.parameters);
    if (event.type === "WORKLOAD_COMPLETED") this.workloadEnd = at;
    const id = strOrNull(payload.operation_id);
    return id === null || event.type === "WORKLOAD_COMPLETED" ? null : { id, type: event.type, payload, at };
  }

  result(timeline: TimelineData): RunEvents {
    return { timeline, firstInjectedParameters: this.firstInjectedParameters };
  }
}

/** The page's events facts from every event of the log at once. */
export function runEventsOf(events: readonly JsonObject[]): RunEvents {
  const byId = new Map<string, MutableOperation>();
  const ordinals = new OperationOrdinals();
  const facts = new EventFacts();
  for (const event of events) {
    const named = facts.take(event);
    if (named === null) continue;
    const { id, type, payload, at } = named;
    const operation = byId.get(id);
    if (type === "OPERATION_OBSERVED") byId.set(id, observed(id, payload, at, ordinals));
    else if (operation !== undefined) apply(operation, type, payload, at);
  }
  return facts.result(timelineOf([...byId.values()], facts.workloadEnd));
}

/** `runEventsOf`, one event at a time. */
export class RunEventsStream {
  readonly #columns = new OperationColumns();
  /** Every operation while there are at most `DETAIL_LIMIT`, then null. */
  #detail: MutableOperation[] | null = [];
  /** Open operations by id: their row, and their object while the detail is kept. */
  readonly #open = new Map<string, { row: number; operation: MutableOperation | null }>();
  readonly #observed = new IdSet();
  readonly #ordinals = new OperationOrdinals();
  readonly #facts = new EventFacts();
  #usable = true;

  /** Takes the next event in file order; false once the log needs the whole-log reading. */
  push(event: JsonObject): boolean {
    if (this.#usable && !this.#take(event)) this.#usable = false;
    return this.#usable;
  }

  #take(event: JsonObject): boolean {
    const named = this.#facts.take(event);
    if (named === null) return true;
    const { id, type, payload, at } = named;
    if (type === "OPERATION_OBSERVED") {
      if (!this.#observed.add(id)) return false;
      const operation = observed(id, payload, at, this.#ordinals);
      const row = this.#columns.add(operation.lane, at);
      if (this.#detail !== null && this.#detail.length === DETAIL_LIMIT) {
        this.#detail = null;
        for (const entry of this.#open.values()) entry.operation = null;
      }
      this.#detail?.push(operation);
      this.#open.set(id, { row, operation: this.#detail === null ? null : operation });
      return true;
    }
    if (!CHANGES.has(type as string)) return true;
    const open = this.#open.get(id);
    // An operation never observed is left out, as in the whole-log reading; one that has ended
    // would be changed after the fact.
    if (open === undefined) return !this.#observed.has(id);
    const operation = open.operation ?? observed(id, {}, 0, new OperationOrdinals());
    apply(operation, type, payload, at);
    if (operation.injected !== null) this.#columns.inject(open.row, operation.injected);
    if (operation.end !== null) {
      this.#columns.end(open.row, operation.end, operation.outcome);
      this.#open.delete(id);
    }
    return true;
  }

  /** The facts of the events pushed so far (what `runEventsOf` gives for them). */
  result(): RunEvents {
    if (!this.#usable) throw new Error("this log needs the whole-log reading");
    return this.#facts.result(timelineOfColumns(this.#columns, this.#facts.workloadEnd, this.#detail));
  }
}
