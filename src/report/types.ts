/**
 * The `report.json` objects of schemas 1, 2 and 3 (docs/reports.md; schema 4 in types-v4.ts), with the key names and the
 * key order of the file. Plain data: built by `buildReport`, read by `readReport`.
 * Every name starts with `Report` because the library entry re-exports these types next to the
 * scenario and event types.
 */
import type {
  EventTiming,
  EvidenceRow,
  Metrics,
  ProbabilityEvidence,
  RecoveryEvidence,
  ScheduleEvidence,
} from "../analysis/types.js";
import type { RunResult } from "../events/types.js";
import type { SnakeCased } from "./snake-cased.js";
import type { ReportV4 } from "./types-v4.js";

export type * from "./types-v4.js";

export type ReportSchemaVersion = 1 | 2 | 3 | 4 | 5;

export interface ReportWorkload {
  readonly name: string;
  readonly expected_exit_code: number;
  readonly exit_code: number | null;
  readonly timed_out: boolean;
  readonly interrupted: boolean;
}

/** Timestamps of the first and last event. */
export type ReportTiming = SnakeCased<NonNullable<EventTiming>>;

/** Paths relative to the run folder. */
export interface ReportArtifacts {
  readonly scenario: string;
  readonly events: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly dependency_stdout: string | null;
  readonly dependency_stderr: string | null;
  readonly report: string;
}

/** Schema 1 (read only). */
export interface ReportFaultV1 {
  readonly configured: boolean;
  readonly type: string | null;
  readonly injected: boolean;
}

export interface ReportRecoveryV1 {
  readonly observed: boolean;
  readonly failed_operation_id: string | null;
  readonly retry_operation_id: string | null;
  readonly recovery_latency_ms: number | null;
}

/** Schema 2: the occurrence schedule is spelled out on the fault itself. */
export interface ReportFaultV2 extends ReportFaultV1 {
  readonly scheduled_occurrences: readonly number[];
  readonly completed_occurrences: readonly number[];
  readonly schedule_completed: boolean;
}

/** One row per fault-related failure, as the analysis keeps it for schemas 1–3. */
export type ReportEvidenceRow = EvidenceRow;

/** Schemas 2 and 3. */
export type ReportRecoveryV2 = RecoveryEvidence;

export type ReportOccurrenceScheduleTrigger = SnakeCased<ScheduleEvidence>;

/** The seed is 0 .. 2^64 − 1, exact, written as plain integer digits. */
export type ReportSeededProbabilityTrigger = SnakeCased<Omit<ProbabilityEvidence, "consistent">>;

export type ReportProbabilityWindow = ReportSeededProbabilityTrigger["window"];

export type ReportTriggerV3 = ReportOccurrenceScheduleTrigger | ReportSeededProbabilityTrigger;

/** Schema 3: the trigger evidence is a tagged object, `null` for a baseline. */
export interface ReportFaultV3 extends ReportFaultV1 {
  readonly trigger: ReportTriggerV3 | null;
}

/**
 * The keys from `run_id` to `workload`, the same in every schema: the run, its verdict, the
 * analysis's metrics from `duration_ms` to `workload_exit_code`, and the workload.
 */
export interface ReportHead extends SnakeCased<Omit<Metrics, "workloadTimedOut" | "workloadInterrupted">> {
  readonly run_id: string;
  readonly scenario_name: string;
  readonly result: RunResult;
  readonly reason_code: string;
  readonly workload: ReportWorkload;
}

interface ReportBase<V extends 1 | 2 | 3, F, R> extends ReportHead {
  readonly schema_version: V;
  readonly fault: F;
  readonly recovery: R;
  readonly timing: ReportTiming;
  readonly artifacts: ReportArtifacts;
  readonly diagnostics: readonly string[];
}

export type ReportV1 = ReportBase<1, ReportFaultV1, ReportRecoveryV1>;
export type ReportV2 = ReportBase<2, ReportFaultV2, ReportRecoveryV2>;
export type ReportV3 = ReportBase<3, ReportFaultV3, ReportRecoveryV2>;

export type Report = ReportV1 | ReportV2 | ReportV3 | ReportV4;

/** Whether a report is of the internal model's shape: schema 4, or 5 for a run with additions. */
export function isReportV4(report: { readonly schema_version: number }): report is ReportV4 {
  return report.schema_version === 4 || report.schema_version === 5;
}
