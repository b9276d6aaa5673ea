/**
 * Schema 1 at the analysis: a schema-1 scenario's plan is its upgrade to the internal model
 * (scenario/legacy/upgrade.ts; its events are lifted by events/lift-schema-1.ts) counting
 * occurrences the way schema 1 does, and the schema-1 verdict over the same evidence, in the
 * shape report schemas 2 and 3 are built from.
 */

import type { LegacyEvent } from "../events/legacy/types.js";
import { liftSchema1Event } from "../events/lift-schema-1.js";
import type { LegacyScenario } from "../scenario/legacy/types.js";
import { upgradeScenario } from "../scenario/legacy/upgrade.js";
import type { RunEvidence } from "./evidence.js";
import type { AnalysisPlan } from "./plan.js";
import { analyzeEvents } from "./run-analysis.js";
import { decideSchema1Verdict } from "./schema-1-verdict.js";
import type { Schema1Analysis } from "./types.js";

export function schema1Plan(scenario: LegacyScenario): AnalysisPlan {
  return { ...upgradeScenario(scenario), occurrences: "observations" };
}

/** The schema-1 analysis of the evidence of a schema-1 plan. */
export function schema1AnalysisOf(evidence: RunEvidence): Schema1Analysis {
  const fault = evidence.faults[0] ?? null;
  const rows = evidence.failures.map((row) => ({
    failed_operation_id: row.failedOperationId,
    retry_operation_id: row.retryOperationId,
    recovery_latency_ms: row.recoveryLatencyMs,
  }));
  const recovery = {
    required: rows.length,
    successful: rows.filter((row) => row.retry_operation_id !== null).length,
    evidence: rows,
  };
  const verdict = decideSchema1Verdict({ ...evidence, recovery });
  return {
    result: verdict.result,
    reasonCode: verdict.reasonCode,
    metrics: evidence.metrics,
    recovery,
    trigger: fault?.evidence.trigger ?? null,
    diagnostics: verdict.diagnostics,
    timing: evidence.timing,
  };
}

/** The batch analysis of a whole schema-1 log. */
export function analyzeSchema1(scenario: LegacyScenario, events: readonly LegacyEvent[]): Schema1Analysis {
  return schema1AnalysisOf(analyzeEvents(schema1Plan(scenario), events.map(liftSchema1Event)));
}
