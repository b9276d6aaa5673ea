/**
 * What the run page shows, derived from the typed report (reports 1–5, narrowed on
 * `schema_version`) and what `events.jsonl` gives (event schemas 1–3) alone. Report 1–3 runs have
 * one lane named `dependency`; report 4 and 5 runs one lane per dependency, in scenario order.
 * Nothing here comes from logs or the scenario.
 */

import {
  isReportV4,
  type Report,
  type ReportEvidenceRow,
  type ReportTargetV4,
  type ReportV1,
  type ReportV2,
  type ReportV3,
  type ReportV4,
} from "../../report/types.js";
import type { ReportTriggerV4 } from "../../report/v4/lasting-trigger.js";
import { truthFields } from "../../report/v4/truth-summary.js";
import type { JsonObject } from "../saved-run.js";
import { type RunEvents, SINGLE_LANE } from "./run-events.js";
import type { TimelineData } from "./timeline-data.js";

export interface FaultView {
  readonly id: string | null;
  readonly dependency: string | null;
  readonly type: string;
  readonly expect: string | null;
  readonly target: string | null;
  readonly parameters: string;
  readonly injected: string;
  readonly notApplied: number | null;
  readonly trigger: string;
  readonly recovery: string | null;
}

export interface EvidenceView {
  readonly faultId: string | null;
  readonly failed: string;
  readonly retry: string | null;
  readonly latencyMs: number | null;
}

export interface RunModel {
  readonly schemaVersion: number;
  readonly runId: string;
  readonly scenarioName: string;
  readonly result: string;
  readonly reasonCode: string;
  readonly durationMs: number;
  readonly startedAt: string;
  readonly facts: readonly (readonly [string, string])[];
  readonly diagnostics: readonly string[];
  readonly faults: readonly FaultView[];
  readonly evidence: readonly EvidenceView[];
  readonly recoveryMode: string | null;
  /** `passed` null: not evaluated (the workload never ran). */
  readonly checks: readonly { name: string; mode: string; passed: boolean | null; findings: number }[];
  readonly dependencies: readonly { name: string; detail: string; observed: number; failed: number }[];
  readonly lanes: readonly string[];
  readonly timeline: TimelineData;
}

/** A list of numbers, or `none`. */
function list(values: readonly number[]): string {
  return values.length === 0 ? "none" : values.join(", ");
}

function triggerText(trigger: ReportTriggerV4): string {
  switch (trigger.kind) {
    case "seeded_probability":
      return (
        `probability ${trigger.probability}, seed ${trigger.seed}, ` +
        `window ${trigger.window.start_occurrence}–${trigger.window.end_occurrence}: ` +
        `evaluated ${trigger.evaluated_occurrences}, selected ${list(trigger.selected_occurrences)}` +
        (trigger.completed ? " (complete)" : " (incomplete)")
      );
    case "occurrence_schedule":
      return (
        `occurrences ${list(trigger.scheduled_occurrences)} scheduled, ${list(trigger.completed_occurrences)} completed` +
        (trigger.completed ? "" : " (incomplete)")
      );
    case "outage": {
      const first = trigger.first_selected_ordinal;
      const ordinals = first === null ? "" : `, ordinals ${first}–${trigger.last_selected_ordinal ?? ""}`;
      return `outage from ${trigger.start_ms} ms for ${trigger.duration_ms} ms: selected ${trigger.selected}${ordinals}`;
    }
    case "quota":
      return (
        `quota ${trigger.limit} ${trigger.unit} per ${trigger.per_ms} ms: ` +
        `counted ${trigger.counted}, selected ${trigger.selected}`
      );
  }
}

/** `key=value, …` of a fault's parameters (a report's, or a schema-1 injection event's), or `—`. */
function parametersText(parameters: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(parameters).map(
    ([key, value]) => `${key}=${typeof value === "object" ? JSON.stringify(value) : String(value)}`,
  );
  return pairs.length === 0 ? "—" : pairs.join(", ");
}

/** `method: POST, path: /tickets`: the target's keys that are set, or null for none. */
function targetText(target: ReportTargetV4): string | null {
  const text = Object.entries(target)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}: ${value}`)
    .join(", ");
  return text === "" ? null : text;
}

function recoveredText(recovery: { readonly successful: number; readonly required: number }): string {
  return `${recovery.successful}/${recovery.required}`;
}

/** The fault rows of a report 4 or 5: one per fault, in scenario order. */
function faultsOfV4(report: ReportV4): FaultView[] {
  return report.faults.map((fault) => ({
    id: fault.id,
    dependency: fault.dependency,
    type: fault.type,
    expect: fault.expect,
    target: targetText(fault.target),
    parameters: parametersText(fault.parameters),
    injected: String(fault.injected),
    notApplied: fault.not_applied,
    trigger: triggerText(fault.trigger),
    recovery: recoveredText(fault.recovery),
  }));
}

/** The fault row of a report 1–3: its single fault (parameters from the events), none for a baseline. */
function faultsOfSingle(
  report: ReportV1 | ReportV2 | ReportV3,
  firstInjectedParameters: JsonObject | null,
): FaultView[] {
  if (!report.fault.configured) return [];
  let trigger = "—";
  if (report.schema_version === 2) {
    trigger = triggerText({
      kind: "occurrence_schedule",
      scheduled_occurrences: report.fault.scheduled_occurrences,
      completed_occurrences: report.fault.completed_occurrences,
      completed: report.fault.schedule_completed,
    });
  } else if (report.schema_version === 3 && report.fault.trigger !== null) {
    trigger = triggerText(report.fault.trigger);
  }
  return [
    {
      id: null,
      dependency: SINGLE_LANE,
      type: report.fault.type ?? "",
      expect: null,
      target: null,
      parameters: firstInjectedParameters === null ? "—" : parametersText(firstInjectedParameters),
      injected: String(report.faults_injected),
      notApplied: null,
      trigger,
      recovery:
        report.schema_version === 1
          ? report.recovery.observed
            ? "observed"
            : "not observed"
          : recoveredText(report.recovery),
    },
  ];
}

function evidenceOf(report: Report): EvidenceView[] {
  // Schema 1's recovery is its one row, when it names a failure.
  const rows: readonly (ReportEvidenceRow & { readonly fault_id?: string })[] =
    report.schema_version !== 1
      ? report.recovery.evidence
      : report.recovery.failed_operation_id === null
        ? []
        : [{ ...report.recovery, failed_operation_id: report.recovery.failed_operation_id }];
  return rows.map((row) => ({
    faultId: row.fault_id ?? null,
    failed: row.failed_operation_id,
    retry: row.retry_operation_id,
    latencyMs: row.recovery_latency_ms,
  }));
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}

/** The dependency rows of a report 4 or 5 (reports 1–3 list none). */
function dependenciesOf(report: Report): RunModel["dependencies"] {
  if (!isReportV4(report)) return [];
  return report.dependencies.map((dependency) => {
    const url = dependency.base_url;
    return {
      name: dependency.name,
      detail: `${dependency.type} · ${dependency.protocol}${url === null ? "" : ` · ${url}`}${dependency.managed ? " · managed" : ""}`,
      observed: dependency.operations_observed,
      failed: dependency.failed_operations,
    };
  });
}

/** Builds the page model from a typed report and what its events give. */
export function runModel(report: Report, events: RunEvents): RunModel {
  const version = report.schema_version;
  const v4 = isReportV4(report) ? report : null;
  const faults = isReportV4(report)
    ? faultsOfV4(report)
    : faultsOfSingle(report, events.firstInjectedParameters);
  const workload = report.workload;
  const dependencies = dependenciesOf(report);
  const lanes = v4 !== null ? dependencies.map((dependency) => dependency.name) : [SINGLE_LANE];
  for (const lane of events.timeline.lanes) if (!lanes.includes(lane)) lanes.push(lane);
  const recoveries =
    report.schema_version === 1 ? yesNo(report.recovery.observed) : recoveredText(report.recovery);
  return {
    schemaVersion: version,
    runId: report.run_id,
    scenarioName: report.scenario_name,
    result: report.result,
    reasonCode: report.reason_code,
    durationMs: report.duration_ms,
    startedAt: report.timing.started_at,
    facts: [
      ["Run", report.run_id],
      ["Started", report.timing.started_at],
      ["Duration", `${(report.duration_ms / 1000).toFixed(2)} s`],
      ["Workload", workload.name],
      ["Exit code", `${workload.exit_code ?? "none"} (expected ${workload.expected_exit_code})`],
      ["Timed out / interrupted", `${yesNo(workload.timed_out)} / ${yesNo(workload.interrupted)}`],
      ["Faults injected", String(report.faults_injected)],
      ["Operations", String(report.operations_observed)],
      ["Failed operations", String(report.failed_operations)],
      ["Retries", String(report.retries_observed)],
      [version === 1 ? "Recovery" : "Recoveries", recoveries],
      ...(v4 === null ? [] : truthFields(v4)).map(
        ([label, value]) => [label.replace(/:$/, ""), value] as const,
      ),
      ["Report schema", String(version)],
    ],
    diagnostics: report.diagnostics,
    faults,
    evidence: evidenceOf(report),
    recoveryMode: v4?.recovery.mode ?? null,
    checks: (v4?.checks ?? []).map((check) => ({
      name: check.name,
      mode: check.mode,
      passed: check.passed,
      findings: check.findings.length,
    })),
    dependencies,
    lanes,
    timeline: events.timeline,
  };
}
