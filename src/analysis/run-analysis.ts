/**
 * The analysis of a run in the internal model: the evidence, judged by the rules of
 * docs/evidence.md ("Result and reason, schema 2"). `analyzeEvents` is the batch form: every
 * event pushed, in sequence order, into a stream that keeps the whole log.
 */
import type { AgentChaosEvent } from "../events/types.js";
import { AnalysisStream } from "./analysis-stream.js";
import { evidenceOf, type RunEvidence } from "./evidence.js";
import type { AnalysisPlan } from "./plan.js";
import type { RecoveryRow, RunAnalysis } from "./types.js";
import { decideVerdict } from "./verdict.js";

/** The evidence of a whole log; events are taken in `sequence` order (a stable sort). */
export function analyzeEvents(plan: AnalysisPlan, events: readonly AgentChaosEvent[]): RunEvidence {
  const stream = new AnalysisStream(plan, { whole: true });
  for (const event of [...events].sort((a, b) => a.sequence - b.sequence)) stream.push(event);
  return evidenceOf(stream);
}

/** The rows of configured faults. */
function recoveryRows(evidence: RunEvidence): RecoveryRow[] {
  return evidence.failures.filter((row): row is RecoveryRow => row.faultId !== null && row.expect !== null);
}

/** The analysis of a run: its evidence and the verdict of the internal model's rules. */
export function runAnalysisOf(evidence: RunEvidence): RunAnalysis {
  const rows = recoveryRows(evidence);
  const verdict = decideVerdict(evidence, rows);
  const recover = rows.filter((row) => row.expect === "recover");
  return {
    result: verdict.result,
    reasonCode: verdict.reasonCode,
    metrics: evidence.metrics,
    dependencies: evidence.dependencies,
    faults: evidence.faults.map(({ evidence: fault }) => fault),
    recovery: {
      mode: evidence.recoveryMode,
      required: recover.length,
      successful: recover.filter((row) => row.retryOperationId !== null).length,
      rows,
    },
    checks: evidence.checks,
    diagnostics: verdict.diagnostics,
    timing: evidence.timing,
    // Only a run with a verify outcome or a canary seen carries it (every other analysis is unchanged).
    ...(evidence.truth.verify === null && evidence.truth.canaries.length === 0
      ? {}
      : { truth: evidence.truth }),
  };
}

/** The batch analysis of a whole log in the internal model. */
export function analyzeRun(plan: AnalysisPlan, events: readonly AgentChaosEvent[]): RunAnalysis {
  return runAnalysisOf(analyzeEvents(plan, events));
}
