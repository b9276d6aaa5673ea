/**
 * The schema-1 analysis (analysis.md) computed while the events are read, in one pass, holding
 * only what the result still depends on: counts, the last completion and run error, the open
 * recovery rows, the injected operation ids and, for a probability trigger, the counted window.
 * `result()` equals `analyze(scenario, events)` of the batch analyzer for every log it accepts;
 * `push` returns false for a log only the whole-log analysis can judge (events out of sequence
 * order, an operation retried twice, …) and the caller then runs the batch analyzer.
 */
import type { AgentChaosEvent, RunErrorPayload, WorkloadCompletedPayload } from "../../events/types.js";
import { compileTarget } from "../../scenario/target.js";
import type { Scenario } from "../../scenario/types.js";
import { probabilityEvidenceOf, scheduleEvidence } from "../trigger-evidence.js";
import type { Analysis, Metrics, RecoveryEvidence, TriggerEvidence } from "../types.js";
import { decideVerdict } from "../verdict.js";
import { CountedWindow } from "./counted-window.js";
import { IdSet } from "./id-set.js";
import { RecoveryRows } from "./recovery-rows.js";
import { RunFacts } from "./run-facts.js";

export class AnalysisStream {
  readonly #scenario: Scenario;
  readonly #facts = new RunFacts();
  readonly #recovery = new RecoveryRows();
  readonly #injectedIds: string[] = [];
  /** Probability trigger only: what it counted, and the operation ids seen so far. */
  readonly #counted: CountedWindow | null = null;
  readonly #matches: ((method: string, path: string) => boolean) | null = null;
  readonly #observed = new IdSet();
  /** request_body_too_large failures of operations not observed (yet). */
  readonly #oversizedUnobserved = new Set<string>();
  #usable = true;

  constructor(scenario: Scenario) {
    this.#scenario = scenario;
    const trigger = scenario.fault?.trigger;
    if (scenario.fault != null && trigger?.kind === "seeded_probability") {
      this.#counted = new CountedWindow(trigger.window.endOccurrence);
      this.#matches = compileTarget(scenario.fault.target);
    }
  }

  /** Takes the next event in file order; false once the log needs the batch analyzer. */
  push(event: AgentChaosEvent): boolean {
    if (!this.#usable) return false;
    const index = this.#facts.index;
    if (!this.#facts.push(event) || !this.#take(event, index)) this.#usable = false;
    return this.#usable;
  }

  #take(event: AgentChaosEvent, index: number): boolean {
    const { payload } = event;
    switch (payload.kind) {
      case "OPERATION_OBSERVED":
        if (this.#counted !== null) {
          if (!this.#observed.add(payload.operation_id)) return false;
          const matches = (this.#matches as (method: string, path: string) => boolean)(
            payload.method,
            payload.path,
          );
          if (matches && !this.#oversizedUnobserved.has(payload.operation_id))
            this.#counted.count(payload.operation_id);
        }
        return true;
      case "FAULT_INJECTED":
        this.#injectedIds.push(payload.operation_id);
        return true;
      case "RETRY_OBSERVED":
        return this.#recovery.retried(
          payload.operation_id,
          payload.retry_of_operation_id,
          payload.fingerprint,
          index,
        );
      case "OPERATION_SUCCEEDED":
        this.#recovery.succeeded(
          payload.operation_id,
          payload.fingerprint,
          payload.status_code,
          event.elapsed_ms,
        );
        return true;
      case "OPERATION_FAILED":
        if (payload.fault_related)
          this.#recovery.failed(payload.operation_id, payload.fingerprint, index, event.elapsed_ms);
        if (payload.failure_kind === "request_body_too_large" && this.#counted !== null)
          return this.#oversized(payload.operation_id);
        return true;
      default:
        return true;
    }
  }

  /** An operation rejected as too large is no occurrence of the trigger. */
  #oversized(operationId: string): boolean {
    const counted = this.#counted as CountedWindow;
    if (!this.#observed.has(operationId)) {
      this.#oversizedUnobserved.add(operationId);
      return true;
    }
    if (counted.isLatest(operationId)) {
      counted.removeLatest();
      return true;
    }
    // The latest operation observed and not the latest counted: it was not counted at all.
    // An earlier one may have been counted somewhere before the latest: the whole log decides.
    return this.#facts.lastObservedId === operationId;
  }

  /** The analysis of the events pushed so far (what `analyze` gives for them). */
  result(): Analysis {
    if (!this.#usable) throw new Error("this log needs the batch analyzer");
    const facts = this.#facts;
    const rows = this.#recovery.rows();
    const recovery: RecoveryEvidence = {
      required: rows.length,
      successful: rows.filter((row) => row.retry_operation_id !== null).length,
      evidence: rows,
    };
    const trigger = this.#trigger();
    const verdict = decideVerdict({
      expectedExitCode: this.#scenario.success.exitCode,
      runError: facts.runError as RunErrorPayload | null,
      completion: facts.completion as WorkloadCompletedPayload | null,
      duplicateSequences: facts.duplicateSequences,
      injectedOperationIds: this.#injectedIds,
      recovery,
      trigger,
    });
    return {
      result: verdict.result,
      reasonCode: verdict.reasonCode,
      metrics: facts.metrics() as Metrics,
      recovery,
      trigger,
      diagnostics: verdict.diagnostics,
      timing: facts.timing(),
    };
  }

  #trigger(): TriggerEvidence | null {
    const fault = this.#scenario.fault;
    if (fault === null) return null;
    if (fault.trigger.kind === "occurrence_schedule")
      return scheduleEvidence(fault.trigger, this.#injectedIds.length);
    const counted = this.#counted as CountedWindow;
    return probabilityEvidenceOf(fault.trigger, counted.total, counted.prefix, this.#injectedIds);
  }
}
