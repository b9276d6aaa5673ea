/**
 * The analysis of one run, computed while the events are read in sequence order, one at a time
 * (docs/evidence.md). It holds the open operations, the fault-related failures (a retry may
 * name them, and each is a recovery row), the retry chains, the probability windows' prefixes
 * and the evidence the report lists; what an operation adds to the counts, the observed targets
 * and the checks is folded in when it closes, and the operation is forgotten.
 *
 * That bounded form judges every log the recorder writes. A log it cannot judge alone — events
 * out of sequence order, an operation id used twice, an event of an operation after its end —
 * makes `push` return false; the caller then reads the log whole and pushes it, in sequence
 * order, into a stream made with `{ whole: true }`, which keeps every operation to the end and
 * judges any log. Both give the same evidence (evidence.ts) for every log the bounded form takes.
 */
import { CHECK_NAMES, CHECKS } from "../checks/registry.js";
import type { ActiveCheck, CheckDefinition } from "../checks/types.js";
import type {
  AgentChaosEvent,
  FailureKind,
  FaultNotAppliedPayload,
  OperationObservedPayload,
  RetryObservedPayload,
} from "../events/types.js";
import type { CheckName } from "../scenario/types.js";
import { findChecks, type PlacedFinding } from "./check-findings.js";
import { CorruptedRetries } from "./corrupted-retries.js";
import { type CountingWindow, countingWindows } from "./counted-window.js";
import { observedKey } from "./fault-diagnostics.js";
import { FifoRows } from "./fifo-rows.js";
import { IdSet } from "./id-set.js";
import { KeptLabels } from "./kept-labels.js";
import { LifecycleFacts } from "./lifecycle-facts.js";
import { entryOf } from "./map-entry.js";
import { Chain, faultOf, newOperation, type Operation } from "./operations.js";
import type { AnalysisPlan } from "./plan.js";
import { RunFacts } from "./run-facts.js";
import { TruthRecords } from "./truth.js";

const OVERSIZED: FailureKind = "request_body_too_large";

/** One fault-related OPERATION_FAILED: a recovery row, attributed and resolved at the end. */
export interface FailureRow {
  readonly op: Operation;
  readonly index: number;
  readonly elapsedMs: number;
  readonly failureKind: FailureKind;
  /** Its position among the fault-related failures (its fifo row). */
  readonly position: number;
}

export interface DependencyCounts {
  observed: number;
  failed: number;
}

export interface FaultSelections {
  /** Operation ids of its FAULT_INJECTED and FAULT_NOT_APPLIED `another_fault_acted` events. */
  readonly selections: string[];
  injected: number;
  notApplied: number;
}

export class AnalysisStream {
  readonly plan: AnalysisPlan;
  /** Every operation is held to the end (else closed ones are forgotten). */
  readonly whole: boolean;
  readonly facts = new RunFacts();
  /** Bounded form: open operations and closed fault-related failures. Whole form: every operation. */
  readonly operations = new Map<string, Operation>();
  readonly chains: Chain[] = [];
  /** Fed only with `recovery: fifo`. */
  readonly fifo: FifoRows | null;
  readonly failures: FailureRow[] = [];
  readonly selections = new Map<string, FaultSelections>();
  readonly notApplied: FaultNotAppliedPayload[] = [];
  /** Operations injected twice, at their second injection. */
  readonly injectedTwice: Operation[] = [];
  readonly windows: readonly CountingWindow[];
  /** Tokens counted for each token quota, by fault id (TOKENS_COUNTED). */
  readonly countedTokens = new Map<string, number>();
  readonly baseUrls = new Map<string, string>();
  readonly checks: readonly ActiveCheck[];
  /** Lost writes (a check's `lostWrite`), by dependency and fingerprint. */
  readonly lostWrites = new Map<string, Operation[]>();
  /** Operations observed and OPERATION_FAILED events of observed operations, per dependency. */
  readonly dependencies = new Map<string, DependencyCounts>();
  /**
   * Per dependency with a fault not selected yet: how many operations were observed with each
   * `<method> <path>`, and the first-named order of the first of them.
   */
  readonly observedKeys = new Map<string, Map<string, { count: number; order: number }>>();
  /** Labels: the whole form keeps all; the bounded form those a diagnostic may name. */
  readonly labels = new KeptLabels();
  readonly truth = new TruthRecords();
  /** Repeats of calls a `give_up` corruption fault corrupted (rule 4a). */
  readonly corruptedRetries: CorruptedRetries;
  /** What the checks found in the operations forgotten. */
  readonly forgotten: PlacedFinding[] = [];
  /** The waits after failures and the cancellations (`fail_fast`, `cancellation`). */
  readonly lifecycle = new LifecycleFacts();
  /** Bounded form: every operation id seen, to notice one used again after it was forgotten. */
  readonly #ids: IdSet | null;
  #order = 0;
  #usable = true;

  constructor(plan: AnalysisPlan, options: { readonly whole: boolean }) {
    this.plan = plan;
    this.whole = options.whole;
    this.#ids = options.whole ? null : new IdSet();
    this.fifo = plan.recovery === "fifo" ? new FifoRows() : null;
    this.checks = CHECK_NAMES.flatMap((name) =>
      plan.checks[name].mode === "off"
        ? []
        : [{ name, definition: CHECKS[name] as unknown as CheckDefinition<CheckName> }],
    );
    for (const fault of plan.faults) this.observedKeys.set(fault.dependency, new Map());
    this.windows = countingWindows(plan.faults, options.whole);
    this.corruptedRetries = new CorruptedRetries(plan.faults);
  }

  /** Takes the next event in sequence order; false once a bounded stream cannot judge the log. */
  push(event: AgentChaosEvent): boolean {
    if (!this.#usable) return false;
    const index = this.facts.index;
    if (!this.facts.push(event) || !this.#take(event, index)) this.#usable = false;
    else this.lifecycle.take(event, index);
    return this.#usable;
  }

  /** Whether every event pushed was taken (the evidence can be drawn). */
  get usable(): boolean {
    return this.#usable;
  }

  /**
   * What the stream holds beyond the ids seen: open operations, closed ones a retry may still
   * name, retry chains and recovery rows. None of it grows with operations that simply succeed.
   */
  held(): { open: number; retryable: number; chains: number; rows: number } {
    let open = 0;
    for (const op of this.operations.values()) if (!op.closed) open += 1;
    const faults = new Set(this.plan.faults.map((fault) => fault.id));
    return {
      open,
      retryable: this.operations.size - open,
      chains: this.chains.length,
      rows: this.failures.filter((row) => faults.has(faultOf(row.op, row.index) ?? "")).length,
    };
  }

  #take(event: AgentChaosEvent, index: number): boolean {
    const { payload } = event;
    const elapsedMs = event.elapsed_ms;
    switch (payload.kind) {
      case "DEPENDENCY_STARTED":
        this.baseUrls.set(payload.dependency, payload.base_url);
        return true;
      case "INJECTOR_STARTED":
        if (payload.upstream_url !== null && !this.baseUrls.has(payload.dependency))
          this.baseUrls.set(payload.dependency, payload.upstream_url);
        return true;
      case "OPERATION_OBSERVED":
        return this.#observed({ index, elapsedMs, payload });
      case "RETRY_OBSERVED":
        return this.#retried(payload, { index, elapsedMs });
      case "FAULT_INJECTED": {
        const op = this.#open(payload.operation_id);
        if (op === null) return false;
        op.fresh = false;
        this.keepLabel(op);
        op.injections += 1;
        if (op.injected === null) {
          op.injected = { index, faultId: payload.fault_id };
          op.chain?.root().add("injected", op);
        } else if (op.injections === 2) this.injectedTwice.push(op);
        this.#select(payload.fault_id, payload.operation_id).injected += 1;
        this.corruptedRetries.injected(payload, op.observed?.payload ?? null);
        return true;
      }
      case "FAULT_NOT_APPLIED": {
        // A whole stream records no operation for it (it names one, it is not one of its events).
        if (!this.whole) {
          const op = this.#open(payload.operation_id);
          if (op === null) return false;
          op.fresh = false;
          this.keepLabel(op);
        }
        this.notApplied.push(payload);
        const selected = payload.reason === "another_fault_acted" ? payload.operation_id : null;
        this.#select(payload.fault_id, selected).notApplied += 1;
        return true;
      }
      case "OPERATION_FAILED":
        return this.#failed({ index, elapsedMs, payload });
      case "OPERATION_SUCCEEDED":
        return this.#succeeded({ index, elapsedMs, payload });
      case "TOKENS_COUNTED":
        this.countedTokens.set(
          payload.fault_id,
          (this.countedTokens.get(payload.fault_id) ?? 0) + payload.tokens,
        );
        return true;
      default:
        return this.truth.take(payload, (id) => this.operations.get(id)?.label ?? null);
    }
  }

  #create(id: string): Operation {
    const op = newOperation(id, this.#order++);
    this.operations.set(id, op);
    return op;
  }

  /** An operation named by an event of its own: bounded, only one still open. */
  #open(id: string): Operation | null {
    const op = this.operations.get(id);
    if (this.whole) return op ?? this.#create(id);
    return op === undefined || op.closed ? null : op;
  }

  #chainOf(op: Operation): Chain {
    if (op.chain === null) {
      op.chain = new Chain(op);
      this.chains.push(op.chain);
    }
    return op.chain;
  }

  #observed(observed: NonNullable<Operation["observed"]>): boolean {
    const id = observed.payload.operation_id;
    let op: Operation;
    if (this.whole) op = this.operations.get(id) ?? this.#create(id);
    else if ((this.#ids as IdSet).add(id)) {
      op = this.#create(id);
      op.fresh = true;
    } else return false;
    const first = op.observed === null;
    if (first) {
      op.observed = observed;
      op.label = this.labels.labelOf(observed.payload);
      if (this.whole) this.keepLabel(op);
      this.#dependencyOf(observed.payload.dependency, op);
      if (op.failure !== null) this.#lostWrite(op);
      if (this.corruptedRetries.observed(observed.payload)) this.keepLabel(op);
    }
    const counted =
      this.plan.occurrences === "observations"
        ? !op.oversized
        : first && op.failure?.payload.failure_kind !== OVERSIZED;
    if (counted && this.windows.length > 0) this.#count(op, observed.payload);
    return true;
  }

  /** An operation's first observation: it counts on its dependency, with the failures read before. */
  #dependencyOf(name: string, op: Operation): void {
    const dependency = entryOf(this.dependencies, name, () => ({ observed: 0, failed: 0 }));
    dependency.observed += 1;
    dependency.failed += op.failures;
    const keys = this.observedKeys.get(name);
    if (keys === undefined) return;
    const key = observedKey((op.observed as NonNullable<Operation["observed"]>).payload);
    const count = keys.get(key);
    if (count === undefined) keys.set(key, { count: 1, order: op.order });
    else {
      count.count += 1;
      count.order = Math.min(count.order, op.order);
    }
  }

  #count(op: Operation, observed: OperationObservedPayload): void {
    for (const { window, matches } of this.windows) {
      if (!matches(observed)) continue;
      window.count(op.id);
      op.countedBy ??= [];
      op.countedBy.push(window);
    }
  }

  #retried(payload: RetryObservedPayload, at: { index: number; elapsedMs: number }): boolean {
    const op = this.#open(payload.operation_id);
    if (op === null || (!this.whole && (!op.fresh || op.id === payload.retry_of_operation_id))) return false;
    const target = this.whole
      ? (this.operations.get(payload.retry_of_operation_id) ?? this.#create(payload.retry_of_operation_id))
      : this.operations.get(payload.retry_of_operation_id);
    if (target === undefined) return false;
    op.fresh = false;
    this.keepLabel(op);
    this.keepLabel(target);
    this.fifo?.retried(op.id, target.id, payload.fingerprint, at.index);
    if (op.retry === null) {
      op.retry = at;
      op.chain?.root().add("retry", op);
    }
    Chain.union(this.#chainOf(op), this.#chainOf(target));
    return true;
  }

  #failed(failure: NonNullable<Operation["failure"]>): boolean {
    const { payload } = failure;
    const op = this.#open(payload.operation_id);
    if (op === null) return false;
    op.fresh = false;
    this.keepLabel(op);
    op.failures += 1;
    if (op.observed !== null)
      (this.dependencies.get(op.observed.payload.dependency) as DependencyCounts).failed += 1;
    const first = op.failure === null;
    if (first) {
      op.failure = failure;
      op.chain?.root().add("failure", op);
      if (op.observed !== null) this.#lostWrite(op);
    }
    if (payload.failure_kind === OVERSIZED) {
      const uncount = this.plan.occurrences === "observations" ? !op.oversized : first;
      for (const window of uncount ? new Set(op.countedBy) : []) if (!window.remove(op.id)) return false;
      op.oversized = true;
    }
    if (payload.fault_related) {
      this.fifo?.failed(op.id, payload.fingerprint, failure.index, failure.elapsedMs);
      this.#chainOf(op);
      this.failures.push({
        op,
        index: failure.index,
        elapsedMs: failure.elapsedMs,
        failureKind: payload.failure_kind,
        position: this.failures.length,
      });
    }
    this.#close(op);
    return true;
  }

  #succeeded(success: NonNullable<Operation["success"]>): boolean {
    const { payload } = success;
    const op = this.#open(payload.operation_id);
    if (op === null) return false;
    op.fresh = false;
    if (op.success === null) {
      op.success = success;
      op.chain?.root().add("success", op);
    }
    this.fifo?.succeeded(op.id, payload.fingerprint, payload.status_code, success.elapsedMs);
    this.#close(op);
    return true;
  }

  /** Bounded: what the operation adds is final; only a fault-related failure stays (a retry may name it). */
  #close(op: Operation): void {
    op.closed = true;
    if (this.whole) return;
    findChecks(op, this.forgotten, this);
    if (op.failure?.payload.fault_related !== true) this.operations.delete(op.id);
  }

  /** An operation whose observation and first failure are both known: a lost write for a check? */
  #lostWrite(op: Operation): void {
    const lost = ({ name, definition }: ActiveCheck) => definition.lostWrite?.(op, this.plan.checks[name]);
    if (!this.checks.some(lost)) return;
    const observed = (op.observed as NonNullable<Operation["observed"]>).payload;
    const key = `${observed.dependency}\n${observed.fingerprint}`;
    entryOf(this.lostWrites, key, () => []).push(op);
  }

  /** Keeps the label of an operation a diagnostic may name. */
  keepLabel(op: Operation): void {
    if (op.label !== null) this.labels.keep(op.id, op.label);
  }

  #select(faultId: string, operationId: string | null): FaultSelections {
    const state = entryOf(this.selections, faultId, () => ({ selections: [], injected: 0, notApplied: 0 }));
    if (operationId !== null) {
      state.selections.push(operationId);
      this.#selected(faultId);
    }
    return state;
  }

  /** Once every fault of a dependency was selected, no diagnostic lists what it observed. */
  #selected(faultId: string): void {
    const dependency = this.plan.faults.find((fault) => fault.id === faultId)?.dependency;
    if (dependency === undefined || !this.observedKeys.has(dependency)) return;
    const all = this.plan.faults
      .filter((fault) => fault.dependency === dependency)
      .every((fault) => (this.selections.get(fault.id)?.selections.length ?? 0) > 0);
    if (all) this.observedKeys.delete(dependency);
  }
}
