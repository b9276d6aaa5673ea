/**
 * What the run page shows, derived from `report.json` (schemas 1–4) and `events.jsonl` (event
 * schemas 1 and 2) alone. Schema 1–3 runs have one lane named `dependency`; schema-4 runs one
 * lane per dependency, in scenario order. Nothing here comes from logs or the scenario.
 */

import type { ReportTruth } from "../../report/v4/truth.js";
import { truthFields } from "../../report/v4/truth-summary.js";
import type { JsonObject } from "../saved-run.js";
import { num, obj, type RunEvents, SINGLE_LANE, str, strOrNull } from "./run-events.js";
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

const arr = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function list(values: unknown): string {
  const items = arr(values).map((item) => str(item));
  return items.length === 0 ? "none" : items.join(", ");
}

function triggerText(trigger: JsonObject): string {
  if (trigger.kind === "seeded_probability") {
    const window = obj(trigger.window);
    return (
      `probability ${str(trigger.probability)}, seed ${str(trigger.seed)}, ` +
      `window ${str(window.start_occurrence)}–${str(window.end_occurrence)}: ` +
      `evaluated ${str(trigger.evaluated_occurrences)}, selected ${list(trigger.selected_occurrences)}` +
      (trigger.completed === true ? " (complete)" : " (incomplete)")
    );
  }
  if (trigger.kind === "occurrence_schedule") {
    return (
      `occurrences ${list(trigger.scheduled_occurrences)} scheduled, ${list(trigger.completed_occurrences)} completed` +
      (trigger.completed === true ? "" : " (incomplete)")
    );
  }
  return "—";
}

function parametersText(parameters: JsonObject): string {
  const pairs = Object.entries(parameters).map(
    ([key, value]) => `${key}=${typeof value === "object" ? JSON.stringify(value) : str(value)}`,
  );
  return pairs.length === 0 ? "—" : pairs.join(", ");
}

/** The fault rows: schema 4's list, or schema 1–3's single fault (parameters from the events). */
function faultsOf(report: JsonObject, firstInjectedParameters: JsonObject | null): FaultView[] {
  if (report.schema_version === 4 || report.schema_version === 5) {
    return arr(report.faults).map((item) => {
      const fault = obj(item);
      const target = obj(fault.target);
      const recovery = obj(fault.recovery);
      const targetText = Object.entries(target)
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : str(value)}`)
        .join(", ");
      return {
        id: str(fault.id),
        dependency: strOrNull(fault.dependency),
        type: str(fault.type),
        expect: strOrNull(fault.expect),
        target: targetText === "" ? null : targetText,
        parameters: parametersText(obj(fault.parameters)),
        injected: str(fault.injected, "0"),
        notApplied: num(fault.not_applied),
        trigger: triggerText(obj(fault.trigger)),
        recovery: `${str(recovery.successful, "0")}/${str(recovery.required, "0")}`,
      };
    });
  }
  const fault = obj(report.fault);
  if (fault.configured !== true) return [];
  let trigger = "—";
  if (report.schema_version === 2) {
    trigger = triggerText({
      kind: "occurrence_schedule",
      scheduled_occurrences: fault.scheduled_occurrences,
      completed_occurrences: fault.completed_occurrences,
      completed: fault.schedule_completed,
    });
  } else if (report.schema_version === 3) {
    trigger = triggerText(obj(fault.trigger));
  }
  const recovery = obj(report.recovery);
  return [
    {
      id: null,
      dependency: SINGLE_LANE,
      type: str(fault.type),
      expect: null,
      target: null,
      parameters: firstInjectedParameters === null ? "—" : parametersText(firstInjectedParameters),
      injected: str(report.faults_injected, "0"),
      notApplied: null,
      trigger,
      recovery:
        report.schema_version === 1
          ? recovery.observed === true
            ? "observed"
            : "not observed"
          : `${str(recovery.successful, "0")}/${str(recovery.required, "0")}`,
    },
  ];
}

function evidenceOf(report: JsonObject): EvidenceView[] {
  const recovery = obj(report.recovery);
  if (report.schema_version === 1) {
    const failed = strOrNull(recovery.failed_operation_id);
    if (failed === null) return [];
    return [
      {
        faultId: null,
        failed,
        retry: strOrNull(recovery.retry_operation_id),
        latencyMs: num(recovery.recovery_latency_ms),
      },
    ];
  }
  return arr(recovery.evidence).map((item) => {
    const row = obj(item);
    return {
      faultId: strOrNull(row.fault_id),
      failed: str(row.failed_operation_id),
      retry: strOrNull(row.retry_operation_id),
      latencyMs: num(row.recovery_latency_ms),
    };
  });
}

function yesNo(value: unknown): string {
  return value === true ? "yes" : "no";
}

/** Builds the page model from a report object and what its events give. */
export function runModel(report: JsonObject, events: RunEvents): RunModel {
  const version = num(report.schema_version) ?? 0;
  const workload = obj(report.workload);
  const recovery = obj(report.recovery);
  const dependencies = arr(report.dependencies).map((item) => {
    const dependency = obj(item);
    const url = strOrNull(dependency.base_url);
    return {
      name: str(dependency.name),
      detail: `${str(dependency.type)} · ${str(dependency.protocol)}${url === null ? "" : ` · ${url}`}${dependency.managed === true ? " · managed" : ""}`,
      observed: num(dependency.operations_observed) ?? 0,
      failed: num(dependency.failed_operations) ?? 0,
    };
  });
  const lanes = version >= 4 ? dependencies.map((dependency) => dependency.name) : [SINGLE_LANE];
  for (const lane of events.timeline.lanes) if (!lanes.includes(lane)) lanes.push(lane);
  const recoveries =
    version === 1
      ? recovery.observed === true
        ? "yes"
        : "no"
      : `${str(recovery.successful, "0")}/${str(recovery.required, "0")}`;
  const timing = obj(report.timing);
  return {
    schemaVersion: version,
    runId: str(report.run_id),
    scenarioName: str(report.scenario_name),
    result: str(report.result),
    reasonCode: str(report.reason_code),
    durationMs: num(report.duration_ms) ?? 0,
    startedAt: str(timing.started_at),
    facts: [
      ["Run", str(report.run_id)],
      ["Started", str(timing.started_at)],
      ["Duration", `${((num(report.duration_ms) ?? 0) / 1000).toFixed(2)} s`],
      ["Workload", str(workload.name)],
      ["Exit code", `${str(workload.exit_code, "none")} (expected ${str(workload.expected_exit_code)})`],
      ["Timed out / interrupted", `${yesNo(workload.timed_out)} / ${yesNo(workload.interrupted)}`],
      ["Faults injected", str(report.faults_injected, "0")],
      ["Operations", str(report.operations_observed, "0")],
      ["Failed operations", str(report.failed_operations, "0")],
      ["Retries", str(report.retries_observed, "0")],
      [version === 1 ? "Recovery" : "Recoveries", recoveries],
      ...truthFields(report as ReportTruth).map(
        ([label, value]) => [label.replace(/:$/, ""), value] as const,
      ),
      ["Report schema", String(version)],
    ],
    diagnostics: arr(report.diagnostics).map((item) => str(item)),
    faults: faultsOf(report, events.firstInjectedParameters),
    evidence: evidenceOf(report),
    recoveryMode: strOrNull(recovery.mode),
    checks: arr(report.checks).map((item) => {
      const check = obj(item);
      return {
        name: str(check.name),
        mode: str(check.mode),
        passed: check.passed === null ? null : check.passed === true,
        findings: arr(check.findings).length,
      };
    }),
    dependencies,
    lanes,
    timeline: events.timeline,
  };
}
