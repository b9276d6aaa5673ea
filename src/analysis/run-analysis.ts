/**
 * The analysis of a run in the internal model: the evidence, judged by the rules of
 * docs/evidence.md ("Result and reason, schema 2"). `analyzeEvents` is the batch form: every
 * event pushed, in sequence order, into a stream that keeps the whole log.
 */
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import { AnalysisStream } from "./analysis-stream.js";
import { evidenceOf, type RunEvidence } from "./evidence.js";
import type { AnalysisPlan } from "./plan.js";
import type { AnalysisV2, RecoveryRowV2 } from "./v2/types.js";
import { decideVerdictV2 } from "./v2/verdict.js";

/** The evidence of a whole log; events are taken in `sequence` order (a stable sort). */
export function analyzeEvents(plan: AnalysisPlan, events: readonly AgentChaosEventV2[]): RunEvidence {
  const stream = new AnalysisStream(plan, { whole: true });
  for (const event of [...events].sort((a, b) => a.sequence - b.sequence)) stream.push(event);
  return evidenceOf(stream);
}

/** The rows of configured faults. */
export function recoveryRows(evidence: RunEvidence): RecoveryRowV2[] {
  return evidence.failures.flatMap((row) =>
    row.faultId === null || row.expect === null
      ? []
      : [
          {
            faultId: row.faultId,
            failedOperationId: row.failedOperationId,
            retryOperationId: row.retryOperationId,
            recoveryLatencyMs: row.recoveryLatencyMs,
            failureKind: row.failureKind,
            expect: row.expect,
            retriedBy: row.retriedBy,
          },
        ],
  );
}

/** The analysis of a run: its evidence and the verdict of the internal model's rules. */
export function runAnalysisOf(evidence: RunEvidence): AnalysisV2 {
  const rows = recoveryRows(evidence);
  const verdict = decideVerdictV2({
    ...evidence,
    faults: evidence.faults.map((fault) => ({ ...fault, observed: () => fault.observed ?? "" })),
    rows,
    unattributed: evidence.failures.flatMap((row) => (row.faultId === null ? [row.failedOperationId] : [])),
  });
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
  };
}

/** The batch analysis of a whole log in the internal model. */
export function analyzeRun(plan: AnalysisPlan, events: readonly AgentChaosEventV2[]): AnalysisV2 {
  return runAnalysisOf(analyzeEvents(plan, events));
}
