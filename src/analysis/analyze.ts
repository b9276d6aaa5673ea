import type { AgentChaosEvent } from "../events/types.js";
import type { Scenario } from "../scenario/types.js";
import { lastPayload } from "./events-of-type.js";
import { computeMetrics } from "./metrics.js";
import { computeRecovery } from "./recovery-evidence.js";
import { computeTriggerEvidence, injectedOperationIds } from "./trigger-evidence.js";
import type { Analysis } from "./types.js";
import { decideVerdict } from "./verdict.js";

function hasDuplicateSequences(sorted: readonly AgentChaosEvent[]): boolean {
  return sorted.some((event, i) => i > 0 && sorted[i - 1]?.sequence === event.sequence);
}

/**
 * The analysis of one run (analysis.md): a pure function of the scenario and the events. The
 * events are taken in `sequence` order (a stable sort; the input is not modified). No I/O, no clock.
 */
export function analyze(scenario: Scenario, events: readonly AgentChaosEvent[]): Analysis {
  const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
  const metrics = computeMetrics(sorted);
  const recovery = computeRecovery(sorted);
  const trigger = computeTriggerEvidence(scenario.fault, sorted);
  const verdict = decideVerdict({
    expectedExitCode: scenario.success.exitCode,
    runError: lastPayload(sorted, "RUN_ERROR"),
    completion: lastPayload(sorted, "WORKLOAD_COMPLETED"),
    duplicateSequences: hasDuplicateSequences(sorted),
    injectedOperationIds: injectedOperationIds(sorted),
    recovery,
    trigger,
  });
  const first = sorted[0];
  const last = sorted.at(-1);
  return {
    result: verdict.result,
    reasonCode: verdict.reasonCode,
    metrics,
    recovery,
    trigger,
    diagnostics: verdict.diagnostics,
    timing: first && last ? { startedAt: first.timestamp, completedAt: last.timestamp } : null,
  };
}
