/**
 * Builds the report object of a finished run from the scenario and its analysis (pure).
 * Schema 3 exactly when the fault uses a seeded probability window; otherwise schema 2
 * (baselines and occurrence schedules), the shape the Python tool 0.4.0 writes.
 */
import type { AnalysisOutcome, ProbabilityEvidence, Schema1Analysis } from "../analysis/types.js";
import type { LegacyScenario } from "../scenario/legacy/types.js";
import { AgentChaosError } from "../support/errors.js";
import { snakeCased } from "./snake-cased.js";
import type {
  ReportArtifacts,
  ReportFaultV2,
  ReportFaultV3,
  ReportHead,
  ReportTiming,
  ReportV2,
  ReportV3,
  ReportWorkload,
} from "./types.js";

export interface BuildReportInput {
  readonly scenario: LegacyScenario;
  readonly analysis: Schema1Analysis;
  readonly runId: string;
  /** Whether the scenario started its dependency (`dependency.start`), which adds its two logs. */
  readonly managedDependency: boolean;
}

/**
 * Used only if the analysis saw no event at all. A run always records `RUN_STARTED` first, so
 * this never appears in practice; a fixed, parseable instant keeps the report valid and the
 * builder free of clocks.
 */
export const NO_EVENTS_TIMESTAMP = "1970-01-01T00:00:00.000Z";

function mismatch(): AgentChaosError {
  return new AgentChaosError(
    "REPORT_EVIDENCE_MISMATCH",
    "The analysed trigger evidence does not match the scenario's fault trigger.",
  );
}

/** The files every run folder has, as every report schema names them first among its artifacts. */
export const RUN_FILES = {
  scenario: "scenario.yaml",
  events: "events.jsonl",
  stdout: "stdout.log",
  stderr: "stderr.log",
} as const;

function artifacts(managedDependency: boolean): ReportArtifacts {
  return {
    ...RUN_FILES,
    dependency_stdout: managedDependency ? "dependency.stdout.log" : null,
    dependency_stderr: managedDependency ? "dependency.stderr.log" : null,
    report: "report.json",
  };
}

/** What every report's head is read from (the schema-1 and schema-2 scenario and analysis both fit). */
export interface ReportHeadSource {
  readonly scenario: {
    readonly name: string;
    readonly workload: { readonly name: string | null; readonly command: readonly [string, ...string[]] };
    readonly success: { readonly exitCode: number };
  };
  readonly analysis: AnalysisOutcome;
  readonly runId: string;
}

/** The keys from `run_id` to `workload` shared by every schema, in file order. */
export function reportHead({ scenario, analysis, runId }: ReportHeadSource): ReportHead {
  const { metrics } = analysis;
  const workload: ReportWorkload = {
    name: scenario.workload.name ?? scenario.workload.command[0],
    expected_exit_code: scenario.success.exitCode,
    exit_code: metrics.workloadExitCode,
    timed_out: metrics.workloadTimedOut,
    interrupted: metrics.workloadInterrupted,
  };
  return {
    run_id: runId,
    scenario_name: scenario.name,
    result: analysis.result,
    reason_code: analysis.reasonCode,
    duration_ms: metrics.durationMs,
    faults_injected: metrics.faultsInjected,
    operations_observed: metrics.operationsObserved,
    successful_operations: metrics.successfulOperations,
    failed_operations: metrics.failedOperations,
    retries_observed: metrics.retriesObserved,
    workload_exit_code: metrics.workloadExitCode,
    workload,
  };
}

export function reportTiming(analysis: Pick<AnalysisOutcome, "timing">): ReportTiming {
  return snakeCased(analysis.timing ?? { startedAt: NO_EVENTS_TIMESTAMP, completedAt: NO_EVENTS_TIMESTAMP });
}

/** Schema 2's fault: the occurrence schedule spelled out (a baseline's empty). */
function scheduleFault(input: BuildReportInput): ReportFaultV2 {
  const fault = input.scenario.fault;
  const evidence = input.analysis.trigger;
  const schedule = evidence?.kind === "occurrence_schedule" ? evidence : null;
  // A configured fault needs its schedule evidence; a baseline has none.
  if ((fault === null) !== (evidence === null) || (evidence !== null && schedule === null)) throw mismatch();
  const completed = [...(schedule?.completedOccurrences ?? [])];
  return {
    configured: fault !== null,
    type: fault?.type ?? null,
    injected: completed.length > 0,
    scheduled_occurrences: [...(schedule?.scheduledOccurrences ?? [])],
    completed_occurrences: completed,
    schedule_completed: schedule?.completed ?? true,
  };
}

/** Schema 3's fault: a seeded probability window's evidence as its trigger object. */
function windowFault(input: BuildReportInput, type: string): ReportFaultV3 {
  const evidence = input.analysis.trigger;
  if (evidence?.kind !== "seeded_probability") throw mismatch();
  const injected = input.analysis.metrics.faultsInjected > 0;
  return { configured: true, type, injected, trigger: probabilityTrigger(evidence) };
}

/** The report of a finished run, keys in the order of docs/reports.md. */
export function buildReport(input: BuildReportInput): ReportV2 | ReportV3 {
  const { analysis } = input;
  const fault = input.scenario.fault;
  const window = fault?.trigger.kind === "seeded_probability" ? fault.type : null;
  return {
    schema_version: window === null ? 2 : 3,
    ...reportHead(input),
    fault: window === null ? scheduleFault(input) : windowFault(input, window),
    recovery: {
      required: analysis.recovery.required,
      successful: analysis.recovery.successful,
      // Rows of `schema1AnalysisOf`: the report's keys in the report's order.
      evidence: analysis.recovery.evidence.map((row) => ({ ...row })),
    },
    timing: reportTiming(analysis),
    artifacts: artifacts(input.managedDependency),
    diagnostics: [...analysis.diagnostics],
  } as ReportV2 | ReportV3;
}

/** A seeded-probability trigger's evidence as the report writes it (reports 3 and 4 alike). */
export function probabilityTrigger({ consistent: _, ...written }: ProbabilityEvidence) {
  return snakeCased(written);
}
