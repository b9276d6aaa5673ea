/**
 * The schema-2 analysis (v2/evidence.md) computed while the events are read, in one pass. It
 * holds the open operations, the fault-related failures a retry may still name, the retry
 * chains, the recovery rows and findings (what the report lists) and a compact set of the
 * operation ids seen, not the events. `result()` equals `analyzeV2(scenario, events)` for every
 * log it accepts; `push` returns false for a log only the whole-log analysis can judge (out of
 * sequence order, an operation id observed twice, an event for an operation that is not open,
 * a retry of an operation no retry can name, a check this stream does not know) and the caller
 * then runs the batch analyzer.
 */
import { CHECK_NAMES } from "../../checks/registry.js";
import { isTooEarly } from "../../checks/retry-after.js";
import { coversDependency, writeMatcher } from "../../checks/scope.js";
import type {
  DuplicateWriteFinding,
  Finding,
  RetryAfterFinding,
  RetryStormFinding,
} from "../../checks/types.js";
import type { RunErrorPayload, WorkloadCompletedPayload } from "../../events/types.js";
import type {
  AgentChaosEventV2,
  FaultNotAppliedPayload,
  OperationFailedPayloadV2,
  OperationObservedPayloadV2,
} from "../../events/types-v2.js";
import type { ChecksConfig, FaultV2, ScenarioV2 } from "../../scenario/types-v2.js";
import { probabilityEvidenceOf, scheduleEvidence } from "../trigger-evidence.js";
import type { TriggerEvidence } from "../types.js";
import { describeObserved, observedKey } from "../v2/diagnostics.js";
import { compileTargetV2 } from "../v2/target.js";
import type {
  AnalysisV2,
  CheckOutcome,
  DependencyEvidence,
  FaultEvidence,
  RecoveryRowV2,
} from "../v2/types.js";
import { type ConfiguredFault, decideVerdictV2 } from "../v2/verdict.js";
import { Chain, type ChainRow } from "./chains.js";
import { checkOutcome } from "./check-outcomes.js";
import { CountedWindow } from "./counted-window.js";
import { IdSet } from "./id-set.js";
import { KeptLabels } from "./kept-labels.js";
import { RecoveryRows } from "./recovery-rows.js";
import { RunFacts } from "./run-facts.js";

/** The checks this stream computes; a scenario with any other one needs the batch analyzer. */
const STREAM_CHECKS = new Set<string>(["retry_after", "retry_storm", "duplicate_writes"]);

interface OpenOperation {
  readonly id: string;
  /** First-named order (operations are first named by their OPERATION_OBSERVED here). */
  readonly order: number;
  readonly index: number;
  readonly elapsedMs: number;
  readonly observed: OperationObservedPayloadV2;
  /** How diagnostics name it (`llm POST /v1/chat/completions #1`). */
  readonly label: string;
  /** Only its OPERATION_OBSERVED so far. */
  fresh: boolean;
  injected: { readonly index: number; readonly faultId: string } | null;
  injections: number;
  chain: Chain | null;
  /** Probability windows that counted it. */
  countedBy: CountedWindow[] | null;
  /** Lost writes it would repeat if it succeeds. */
  repeats: LostWrite[] | null;
}

interface LostWrite {
  readonly id: string;
  readonly order: number;
  readonly keyHash: string | null;
}

interface Row {
  readonly position: number;
  readonly faultId: string;
  readonly failedOperationId: string;
  readonly failureKind: OperationFailedPayloadV2["failure_kind"];
  readonly expect: FaultV2["expect"];
  readonly chainRow: ChainRow;
}

interface FaultState {
  readonly selections: string[];
  injected: number;
  notApplied: number;
}

export class AnalysisStreamV2 {
  readonly #scenario: ScenarioV2;
  readonly #checks: ChecksConfig;
  readonly #facts = new RunFacts();
  readonly #ids = new IdSet();
  readonly #open = new Map<string, OpenOperation>();
  /** Closed operations a RETRY_OBSERVED may still name (fault-related failures), with their chain. */
  readonly #retryable = new Map<string, Chain>();
  readonly #chains: Chain[] = [];
  readonly #fifo = new RecoveryRows();
  readonly #rows: Row[] = [];
  readonly #unattributed: string[] = [];
  #faultRelatedFailures = 0;
  readonly #expectOf: ReadonlyMap<string, FaultV2["expect"]>;
  readonly #selections = new Map<string, FaultState>();
  readonly #notApplied: FaultNotAppliedPayload[] = [];
  readonly #injectionsTwice: { index: number; id: string }[] = [];
  readonly #windows: {
    fault: FaultV2;
    window: CountedWindow;
    matches: (op: OperationObservedPayloadV2) => boolean;
  }[] = [];
  readonly #observedKeys = new Map<string, Map<string, number>>();
  readonly #observedCount = new Map<string, number>();
  readonly #failedCount = new Map<string, number>();
  readonly #baseUrls = new Map<string, string>();
  readonly #lostWrites = new Map<string, LostWrite[]>();
  readonly #retryAfterFindings: RetryAfterFinding[] = [];
  readonly #stormGapFindings: RetryStormFinding[] = [];
  readonly #duplicateWrites: { lost: number; later: number; finding: DuplicateWriteFinding }[] = [];
  readonly #labels = new KeptLabels();
  readonly #isWrite: ReturnType<typeof writeMatcher>;
  #order = 0;
  #usable: boolean;

  constructor(scenario: ScenarioV2) {
    this.#scenario = scenario;
    this.#checks = scenario.checks;
    this.#isWrite = writeMatcher(scenario.checks.duplicate_writes);
    this.#expectOf = new Map(scenario.faults.map((fault) => [fault.id, fault.expect]));
    this.#usable = CHECK_NAMES.every((name) => STREAM_CHECKS.has(name));
    for (const fault of scenario.faults) {
      if (!this.#observedKeys.has(fault.dependency)) this.#observedKeys.set(fault.dependency, new Map());
      if (fault.trigger.kind !== "seeded_probability") continue;
      const matches = compileTargetV2(fault.target);
      const window = new CountedWindow(fault.trigger.window.endOccurrence);
      this.#windows.push({
        fault,
        window,
        matches: (op) => op.dependency === fault.dependency && matches(op),
      });
    }
  }

  /** Takes the next event in file order; false once the log needs the batch analyzer. */
  push(event: AgentChaosEventV2): boolean {
    if (!this.#usable) return false;
    const index = this.#facts.index;
    if (!this.#facts.push(event) || !this.#take(event, index)) this.#usable = false;
    return this.#usable;
  }

  #take(event: AgentChaosEventV2, index: number): boolean {
    const { payload } = event;
    switch (payload.kind) {
      case "DEPENDENCY_STARTED":
        this.#baseUrls.set(payload.dependency, payload.base_url);
        return true;
      case "INJECTOR_STARTED":
        if (payload.upstream_url !== null && !this.#baseUrls.has(payload.dependency))
          this.#baseUrls.set(payload.dependency, payload.upstream_url);
        return true;
      case "OPERATION_OBSERVED":
        return this.#observe(payload, index, event.elapsed_ms);
      case "RETRY_OBSERVED":
        return this.#retry(payload.operation_id, payload.retry_of_operation_id, payload.fingerprint, index);
      case "FAULT_INJECTED": {
        const op = this.#open.get(payload.operation_id);
        if (op === undefined) return false;
        this.#keepLabel(op);
        op.fresh = false;
        op.injections += 1;
        if (op.injected === null) {
          op.injected = { index, faultId: payload.fault_id };
          if (op.chain !== null) op.chain.root().latestInjection = op.injected;
        } else if (op.injections === 2) this.#injectionsTwice.push({ index: op.injected.index, id: op.id });
        const state = this.#selection(payload.fault_id);
        state.injected += 1;
        state.selections.push(payload.operation_id);
        this.#selected(payload.fault_id);
        return true;
      }
      case "FAULT_NOT_APPLIED": {
        const op = this.#open.get(payload.operation_id);
        if (op === undefined) return false;
        this.#keepLabel(op);
        op.fresh = false;
        this.#notApplied.push(payload);
        const state = this.#selection(payload.fault_id);
        state.notApplied += 1;
        if (payload.reason === "another_fault_acted") {
          state.selections.push(payload.operation_id);
          this.#selected(payload.fault_id);
        }
        return true;
      }
      case "OPERATION_FAILED":
        return this.#fail(payload, index, event.elapsed_ms);
      case "OPERATION_SUCCEEDED": {
        const op = this.#open.get(payload.operation_id);
        if (op === undefined) return false;
        this.#open.delete(op.id);
        this.#fifo.succeeded(op.id, payload.fingerprint, payload.status_code, event.elapsed_ms);
        const status = payload.status_code;
        const recovered = op.observed.protocol === "mcp" || (status !== null && status < 400);
        if (recovered && op.chain !== null) {
          const chain = op.chain.root();
          for (const row of chain.rows) {
            if (!row.waitingForSuccess) continue;
            row.waitingForSuccess = false;
            row.retryOperationId = op.id;
            row.recoveryLatencyMs = Math.max(0, event.elapsed_ms - row.failureElapsedMs);
          }
          prune(chain);
        }
        if (op.repeats !== null && status !== null && status < 400) {
          this.#keepLabel(op);
          this.#repeated(op);
        }
        return true;
      }
      default:
        return true;
    }
  }

  #observe(payload: OperationObservedPayloadV2, index: number, elapsedMs: number): boolean {
    if (!this.#ids.add(payload.operation_id)) return false;
    const op: OpenOperation = {
      id: payload.operation_id,
      order: this.#order++,
      index,
      elapsedMs,
      observed: payload,
      label: this.#labels.labelOf(payload),
      fresh: true,
      injected: null,
      injections: 0,
      chain: null,
      countedBy: null,
      repeats: null,
    };
    this.#open.set(op.id, op);
    this.#observedCount.set(payload.dependency, (this.#observedCount.get(payload.dependency) ?? 0) + 1);
    const keys = this.#observedKeys.get(payload.dependency);
    if (keys !== undefined) {
      const key = observedKey(payload);
      keys.set(key, (keys.get(key) ?? 0) + 1);
    }
    for (const { window, matches } of this.#windows) {
      if (!matches(payload)) continue;
      window.count(op.id);
      op.countedBy ??= [];
      op.countedBy.push(window);
    }
    if (this.#lostWrites.size > 0) {
      const lost = this.#lostWrites.get(`${payload.dependency}\n${payload.fingerprint}`);
      if (lost !== undefined) op.repeats = [...lost];
    }
    return true;
  }

  #retry(operationId: string, retryOf: string, fingerprint: string, index: number): boolean {
    const op = this.#open.get(operationId);
    if (op === undefined || !op.fresh || operationId === retryOf) return false;
    const named = this.#open.get(retryOf);
    this.#keepLabel(op);
    if (named !== undefined) this.#keepLabel(named);
    let target: Chain | undefined;
    if (named !== undefined) {
      named.chain ??= this.#newChain(named, named.injected);
      target = named.chain;
    } else target = this.#retryable.get(retryOf);
    if (target === undefined) return false;
    op.fresh = false;
    if (!this.#fifo.retried(operationId, retryOf, fingerprint, index)) return false;
    op.chain = this.#newChain(op, null);
    const chain = Chain.union(target, op.chain);
    for (const row of chain.rows) row.retriedBy ??= operationId;
    prune(chain);
    this.#gap(op, chain);
    return true;
  }

  /** The retry checks' view of one retry: its previous failure in its chain and the gap. */
  #gap(op: OpenOperation, chain: Chain): void {
    const dependency = op.observed.dependency;
    const retryAfterOn =
      this.#checks.retry_after.mode !== "off" && coversDependency(this.#checks.retry_after, dependency);
    const storm = this.#checks.retry_storm;
    const stormOn = storm.mode !== "off" && coversDependency(storm, dependency);
    if (!retryAfterOn && !stormOn) return;
    const previous = chain.failureBefore(op.index);
    if (previous === null) return;
    const gapMs = op.elapsedMs - previous.elapsedMs;
    const asked = previous.retryAfterMs;
    if (retryAfterOn && asked !== null && isTooEarly(gapMs, asked))
      this.#retryAfterFindings.push({
        operation_id: op.id,
        failed_operation_id: previous.operationId,
        retry_after_ms: asked,
        gap_ms: gapMs,
      });
    if (stormOn && asked === null && gapMs < storm.minGapMs)
      this.#stormGapFindings.push({
        operation_id: op.id,
        failed_operation_id: previous.operationId,
        gap_ms: gapMs,
      });
  }

  #fail(payload: OperationFailedPayloadV2, index: number, elapsedMs: number): boolean {
    const op = this.#open.get(payload.operation_id);
    if (op === undefined) return false;
    this.#open.delete(op.id);
    this.#keepLabel(op);
    const dependency = op.observed.dependency;
    this.#failedCount.set(dependency, (this.#failedCount.get(dependency) ?? 0) + 1);
    if (payload.failure_kind === "request_body_too_large" && op.countedBy !== null) {
      for (const window of op.countedBy) {
        if (!window.isLatest(op.id)) return false;
        window.removeLatest();
      }
    }
    if (op.chain !== null)
      op.chain.root().failures.push({
        index,
        elapsedMs,
        operationId: op.id,
        retryAfterMs: payload.retry_after_ms,
      });
    if (this.#checks.duplicate_writes.mode !== "off") this.#lost(op, payload);
    if (!payload.fault_related) return true;

    const position = this.#faultRelatedFailures++;
    this.#fifo.failed(op.id, payload.fingerprint, index, elapsedMs);
    op.chain ??= this.#newChain(op, op.injected, {
      index,
      elapsedMs,
      operationId: op.id,
      retryAfterMs: payload.retry_after_ms,
    });
    this.#retryable.set(op.id, op.chain);
    const chain = op.chain.root();
    const faultId = op.injected?.faultId ?? chain.latestInjection?.faultId ?? null;
    const expect = faultId === null ? undefined : this.#expectOf.get(faultId);
    if (faultId === null || expect === undefined) {
      this.#unattributed.push(op.id);
      return true;
    }
    const chainRow: ChainRow = {
      failureIndex: index,
      failureElapsedMs: elapsedMs,
      waitingForSuccess: this.#scenario.recovery === "chain",
      retryOperationId: null,
      recoveryLatencyMs: null,
      retriedBy: null,
    };
    chain.rows.push(chainRow);
    this.#rows.push({
      position,
      faultId,
      failedOperationId: op.id,
      failureKind: payload.failure_kind,
      expect,
      chainRow,
    });
    return true;
  }

  /** `duplicate_writes`: a POST or PATCH whose response was lost after the upstream accepted it. */
  #lost(op: OpenOperation, payload: OperationFailedPayloadV2): void {
    const observed = op.observed;
    const accepted = payload.upstream_status !== null && payload.upstream_status < 400;
    if (!this.#isWrite(observed) || payload.failure_kind !== "injected_response_lost" || !accepted) return;
    const key = `${observed.dependency}\n${observed.fingerprint}`;
    const list = this.#lostWrites.get(key) ?? [];
    list.push({ id: op.id, order: op.order, keyHash: observed.idempotency_key_hash });
    this.#lostWrites.set(key, list);
  }

  #repeated(op: OpenOperation): void {
    for (const lost of op.repeats ?? []) {
      const key = lost.keyHash;
      if (key != null && op.observed.idempotency_key_hash === key) continue;
      this.#duplicateWrites.push({
        lost: lost.order,
        later: op.order,
        finding: { operation_id: lost.id, duplicate_operation_id: op.id },
      });
    }
  }

  #newChain(
    op: OpenOperation,
    injected: OpenOperation["injected"],
    failure?: Chain["failures"][number],
  ): Chain {
    const chain = new Chain(op.id, op.order);
    chain.dependency = op.observed.dependency;
    chain.latestInjection = injected;
    if (failure !== undefined) chain.failures.push(failure);
    this.#chains.push(chain);
    return chain;
  }

  #selection(faultId: string): FaultState {
    let state = this.#selections.get(faultId);
    if (state === undefined) {
      state = { selections: [], injected: 0, notApplied: 0 };
      this.#selections.set(faultId, state);
    }
    return state;
  }

  /** Once every fault of a dependency was selected, no diagnostic lists what it observed. */
  #selected(faultId: string): void {
    const dependency = this.#scenario.faults.find((fault) => fault.id === faultId)?.dependency;
    if (dependency === undefined || !this.#observedKeys.has(dependency)) return;
    const all = this.#scenario.faults
      .filter((fault) => fault.dependency === dependency)
      .every((fault) => (this.#selections.get(fault.id)?.selections.length ?? 0) > 0);
    if (all) this.#observedKeys.delete(dependency);
  }

  /**
   * What the stream holds beyond the ids seen: operations still open, closed ones a retry may
   * still name, retry chains, recovery rows. None of it grows with operations that simply succeed.
   */
  held(): { open: number; retryable: number; chains: number; rows: number } {
    return {
      open: this.#open.size,
      retryable: this.#retryable.size,
      chains: this.#chains.length,
      rows: this.#rows.length,
    };
  }

  /** The analysis of the events pushed so far (what `analyzeV2` gives for them). */
  result(): AnalysisV2 {
    if (!this.#usable) throw new Error("this log needs the batch analyzer");
    const scenario = this.#scenario;
    const facts = this.#facts;
    const rows = this.#recoveryRows();
    const configured: ConfiguredFault[] = scenario.faults.map((fault) => {
      const own = this.#selections.get(fault.id);
      const ownRows = rows.filter((row) => row.faultId === fault.id && row.expect === "recover");
      const evidence: FaultEvidence = {
        id: fault.id,
        selections: [...(own?.selections ?? [])],
        injected: own?.injected ?? 0,
        notApplied: own?.notApplied ?? 0,
        trigger: this.#trigger(fault, own?.selections ?? []),
        recovery: {
          required: ownRows.length,
          successful: ownRows.filter((row) => row.retryOperationId !== null).length,
        },
      };
      const counts = this.#observedKeys.get(fault.dependency) ?? new Map<string, number>();
      return { fault, evidence, observed: () => describeObserved(fault.dependency, counts) };
    });
    const faults = configured.map(({ evidence }) => evidence);
    const checks = this.#checkOutcomes();
    const known = new Set(scenario.faults.map((fault) => fault.id));
    const verdict = decideVerdictV2({
      expectedExitCode: scenario.success.exitCode,
      runError: facts.runError as RunErrorPayload | null,
      completion: facts.completion as WorkloadCompletedPayload | null,
      duplicateSequences: facts.duplicateSequences,
      faults: configured,
      rows,
      notApplied: [...this.#notApplied],
      duplicateInjections: this.#duplicateInjections(faults),
      unattributed: [...this.#unattributed],
      unknownFaultEvidence: [...this.#selections.keys()].some((id) => !known.has(id)),
      checks,
      label: this.#labels.label,
    });
    const recoverRows = rows.filter((row) => row.expect === "recover");
    return {
      result: verdict.result,
      reasonCode: verdict.reasonCode,
      metrics: facts.metrics(),
      dependencies: this.#dependencies(),
      faults,
      recovery: {
        mode: scenario.recovery,
        required: recoverRows.length,
        successful: recoverRows.filter((row) => row.retryOperationId !== null).length,
        rows,
      },
      checks,
      diagnostics: verdict.diagnostics,
      timing: facts.timing(),
    };
  }

  /** Keeps the label of an operation a diagnostic may name (injected, not applied, retried or retrying, failed, a repeated write). */
  #keepLabel(op: OpenOperation): void {
    this.#labels.keep(op.id, op.label);
  }

  #recoveryRows(): RecoveryRowV2[] {
    const fifo = this.#scenario.recovery === "fifo" ? this.#fifo.rows() : [];
    return this.#rows.map((row) => {
      const fifoRow = fifo[row.position];
      const resolution =
        this.#scenario.recovery === "chain"
          ? {
              retryOperationId: row.chainRow.retryOperationId,
              recoveryLatencyMs: row.chainRow.recoveryLatencyMs,
            }
          : {
              retryOperationId: fifoRow?.retry_operation_id ?? null,
              recoveryLatencyMs: fifoRow?.recovery_latency_ms ?? null,
            };
      return {
        faultId: row.faultId,
        failedOperationId: row.failedOperationId,
        ...resolution,
        failureKind: row.failureKind,
        expect: row.expect,
        retriedBy: row.chainRow.retriedBy,
      };
    });
  }

  #trigger(fault: FaultV2, selections: readonly string[]): TriggerEvidence {
    if (fault.trigger.kind === "occurrence_schedule")
      return scheduleEvidence(fault.trigger, selections.length);
    const window = this.#windows.find((entry) => entry.fault === fault)?.window as CountedWindow;
    return probabilityEvidenceOf(fault.trigger, window.total, window.prefix, selections);
  }

  #duplicateInjections(faults: readonly FaultEvidence[]): string[] {
    const duplicates = new Set(
      [...this.#injectionsTwice].sort((a, b) => a.index - b.index).map((entry) => entry.id),
    );
    for (const fault of faults) {
      const seen = new Set<string>();
      for (const id of fault.selections) {
        if (seen.has(id)) duplicates.add(id);
        seen.add(id);
      }
    }
    return [...duplicates];
  }

  #dependencies(): DependencyEvidence[] {
    return this.#scenario.dependencies.map((dependency) => ({
      name: dependency.name,
      operationsObserved: this.#observedCount.get(dependency.name) ?? 0,
      failedOperations: this.#failedCount.get(dependency.name) ?? 0,
      baseUrl: this.#baseUrls.get(dependency.name) ?? null,
    }));
  }

  #checkOutcomes(): CheckOutcome[] {
    const found: Record<string, Finding[]> = {
      retry_after: [...this.#retryAfterFindings],
      retry_storm: [...this.#stormChains(), ...this.#stormGapFindings],
      duplicate_writes: [...this.#duplicateWrites]
        .sort((a, b) => a.lost - b.lost || a.later - b.later)
        .map((entry) => entry.finding),
    };
    return CHECK_NAMES.flatMap(
      (name) =>
        checkOutcome(
          name,
          this.#checks,
          found[name] ?? [],
          this.#labels.label,
          this.#facts.workloadStarted,
        ) ?? [],
    );
  }

  #stormChains(): RetryStormFinding[] {
    const maxAttempts = this.#checks.retry_storm.maxAttempts;
    return this.#chains
      .filter(
        (chain) =>
          chain.isRoot &&
          chain.size > 1 &&
          chain.size > maxAttempts &&
          coversDependency(this.#checks.retry_storm, chain.dependency),
      )
      .sort((a, b) => a.firstOrder - b.firstOrder)
      .map((chain) => ({ first_operation_id: chain.firstId, operations: chain.size }));
  }
}

/** Rows with nothing left to wait for leave the chain (the run's row list keeps them). */
function prune(chain: Chain): void {
  if (chain.rows.some((row) => !row.waitingForSuccess && row.retriedBy !== null))
    chain.rows = chain.rows.filter((row) => row.waitingForSuccess || row.retriedBy === null);
}
