import { evaluateChecks } from "../../checks/evaluate.js";
import { buildTimeline, type Timeline } from "../../events/timeline.js";
import type { AgentChaosEventV2, FaultNotAppliedPayload } from "../../events/types-v2.js";
import type { ScenarioV2 } from "../../scenario/types-v2.js";
import { lastPayload } from "../events-of-type.js";
import { computeMetrics } from "../metrics.js";
import { observedOn } from "./diagnostics.js";
import { faultTriggerEvidence, selectionsByFault } from "./fault-evidence.js";
import { recoveryRows } from "./recovery.js";
import type { AnalysisV2, DependencyEvidence, FaultEvidence, RecoveryRowV2 } from "./types.js";
import { type ConfiguredFault, decideVerdictV2 } from "./verdict.js";

function hasDuplicateSequences(sorted: readonly AgentChaosEventV2[]): boolean {
  return sorted.some((event, i) => i > 0 && sorted[i - 1]?.sequence === event.sequence);
}

/** Per dependency, in scenario order: its operations, failed operations and recorded base URL. */
function dependencyEvidence(scenario: ScenarioV2, timeline: Timeline): DependencyEvidence[] {
  const baseUrls = new Map<string, string>();
  for (const { payload } of timeline.events) {
    if (payload.kind === "DEPENDENCY_STARTED") baseUrls.set(payload.dependency, payload.base_url);
    else if (payload.kind === "INJECTOR_STARTED" && payload.upstream_url !== null)
      if (!baseUrls.has(payload.dependency)) baseUrls.set(payload.dependency, payload.upstream_url);
  }
  const observed = new Map<string, number>();
  const failed = new Map<string, number>();
  const dependencyOf = new Map<string, string>();
  for (const op of timeline.operations.values()) {
    const dependency = op.observed?.payload.dependency;
    if (dependency === undefined) continue;
    dependencyOf.set(op.id, dependency);
    observed.set(dependency, (observed.get(dependency) ?? 0) + 1);
  }
  // Every OPERATION_FAILED counts, like the run's `failed_operations`.
  for (const { payload } of timeline.events) {
    const dependency =
      payload.kind === "OPERATION_FAILED" ? dependencyOf.get(payload.operation_id) : undefined;
    if (dependency !== undefined) failed.set(dependency, (failed.get(dependency) ?? 0) + 1);
  }
  return scenario.dependencies.map((dependency) => ({
    name: dependency.name,
    operationsObserved: observed.get(dependency.name) ?? 0,
    failedOperations: failed.get(dependency.name) ?? 0,
    baseUrl: baseUrls.get(dependency.name) ?? null,
  }));
}

function hasRepeats(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

/** Operations injected more than once, or selected twice by one fault, in the order first seen. */
function duplicateInjections(timeline: Timeline, faults: readonly FaultEvidence[]): string[] {
  const injections = new Map<string, number>();
  for (const { payload } of timeline.events) {
    if (payload.kind === "FAULT_INJECTED")
      injections.set(payload.operation_id, (injections.get(payload.operation_id) ?? 0) + 1);
  }
  const duplicates = new Set([...injections].filter(([, count]) => count > 1).map(([id]) => id));
  for (const fault of faults) {
    if (!hasRepeats(fault.selections)) continue;
    fault.selections.forEach((id, index) => {
      if (fault.selections.indexOf(id) !== index) duplicates.add(id);
    });
  }
  return [...duplicates];
}

/**
 * The analysis of one schema-2 run (v2/evidence.md): a pure function of the scenario and the
 * events. The events are taken in `sequence` order (a stable sort; the input is not modified).
 */
export function analyzeV2(scenario: ScenarioV2, events: readonly AgentChaosEventV2[]): AnalysisV2 {
  const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
  const timeline = buildTimeline(sorted);
  const metrics = computeMetrics(sorted);
  const selections = selectionsByFault(timeline);
  const { rows, unattributed } = recoveryRows(scenario.faults, scenario.recovery, timeline);

  const configured: ConfiguredFault[] = scenario.faults.map((fault) => {
    const own = selections.get(fault.id);
    const ownRows = rows.filter((row) => row.faultId === fault.id && row.expect === "recover");
    const evidence: FaultEvidence = {
      id: fault.id,
      selections: own?.selections ?? [],
      injected: own?.injected ?? 0,
      notApplied: own?.notApplied ?? 0,
      trigger: faultTriggerEvidence(fault, own?.selections ?? [], timeline),
      recovery: {
        required: ownRows.length,
        successful: ownRows.filter((row) => row.retryOperationId !== null).length,
      },
    };
    return { fault, evidence, observed: () => observedOn(fault.dependency, timeline) };
  });
  const faults = configured.map(({ evidence }) => evidence);
  const checks = evaluateChecks(timeline, scenario.checks);
  const notApplied = sorted.flatMap((event): FaultNotAppliedPayload[] =>
    event.payload.kind === "FAULT_NOT_APPLIED" ? [event.payload] : [],
  );
  const known = new Set(scenario.faults.map((fault) => fault.id));

  const verdict = decideVerdictV2({
    expectedExitCode: scenario.success.exitCode,
    runError: lastPayload(sorted, "RUN_ERROR"),
    completion: lastPayload(sorted, "WORKLOAD_COMPLETED"),
    duplicateSequences: hasDuplicateSequences(sorted),
    faults: configured,
    rows,
    notApplied,
    duplicateInjections: duplicateInjections(timeline, faults),
    unattributed,
    unknownFaultEvidence: [...selections.keys()].some((id) => !known.has(id)),
    checks,
  });
  const recoverRows = rows.filter((row: RecoveryRowV2) => row.expect === "recover");
  const first = sorted[0];
  const last = sorted.at(-1);
  return {
    result: verdict.result,
    reasonCode: verdict.reasonCode,
    metrics,
    dependencies: dependencyEvidence(scenario, timeline),
    faults,
    recovery: {
      mode: scenario.recovery,
      required: recoverRows.length,
      successful: recoverRows.filter((row) => row.retryOperationId !== null).length,
      rows,
    },
    checks,
    diagnostics: verdict.diagnostics,
    timing: first && last ? { startedAt: first.timestamp, completedAt: last.timestamp } : null,
  };
}
