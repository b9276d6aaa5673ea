/**
 * Shapes and types of the three report schemas: turns a parsed JSON tree into a typed `Report`.
 * Value and cross-field rules (negative counts, schedules, outcome, ...) live in `rules/`.
 */
import type { RunResult } from "../events/types.js";
import { FAULT_TYPES } from "../scenario/types.js";
import { invalidAt, ReportError } from "./errors.js";
import { REASON_CODES } from "./rules/reasons.js";
import { integerLiteral, isJsonObject, StrictObject } from "./strict-json.js";
import type {
  Report,
  ReportEvidenceRow,
  ReportFaultV1,
  ReportFaultV2,
  ReportFaultV3,
  ReportRecoveryV1,
  ReportRecoveryV2,
  ReportSchemaVersion,
  ReportTriggerV3,
} from "./types.js";

const TOP_LEVEL_KEYS = [
  "schema_version",
  "run_id",
  "scenario_name",
  "result",
  "reason_code",
  "duration_ms",
  "faults_injected",
  "operations_observed",
  "successful_operations",
  "failed_operations",
  "retries_observed",
  "workload_exit_code",
  "workload",
  "fault",
  "recovery",
  "timing",
  "artifacts",
  "diagnostics",
] as const;

const RESULTS: readonly RunResult[] = ["PASSED", "RECOVERED", "FAILED"];
const WORKLOAD_KEYS = ["name", "expected_exit_code", "exit_code", "timed_out", "interrupted"];
const TIMING_KEYS = ["started_at", "completed_at"];
const ARTIFACT_KEYS = [
  "scenario",
  "events",
  "stdout",
  "stderr",
  "dependency_stdout",
  "dependency_stderr",
  "report",
];
const FAULT_V1_KEYS = ["configured", "type", "injected"];
const RECOVERY_V1_KEYS = ["observed", "failed_operation_id", "retry_operation_id", "recovery_latency_ms"];
const FAULT_V2_KEYS = [
  ...FAULT_V1_KEYS,
  "scheduled_occurrences",
  "completed_occurrences",
  "schedule_completed",
];
const FAULT_V3_KEYS = [...FAULT_V1_KEYS, "trigger"];
const RECOVERY_V2_KEYS = ["required", "successful", "evidence"];
const EVIDENCE_KEYS = ["failed_operation_id", "retry_operation_id", "recovery_latency_ms"];
const SCHEDULE_TRIGGER_KEYS = ["kind", "scheduled_occurrences", "completed_occurrences", "completed"];
const PROBABILITY_TRIGGER_KEYS = [
  "kind",
  "probability",
  "seed",
  "window",
  "evaluated_occurrences",
  "selected_occurrences",
  "completed",
];
const WINDOW_KEYS = ["start_occurrence", "end_occurrence"];

/** `schema_version` must be the integer 1, 2 or 3; anything else (or nothing) is unsupported. */
export function schemaVersionOf(document: unknown): ReportSchemaVersion {
  if (!isJsonObject(document)) throw invalidAt(null);
  const version = Object.hasOwn(document, "schema_version") ? integerLiteral(document.schema_version) : null;
  if (version === 1n || version === 2n || version === 3n) return Number(version) as ReportSchemaVersion;
  throw new ReportError("REPORT_SCHEMA_UNSUPPORTED");
}

/** Reads the whole document strictly into a typed report of its schema. */
export function parseReportShape(document: unknown): Report {
  const version = schemaVersionOf(document);
  const root = StrictObject.of(document, "", TOP_LEVEL_KEYS);
  const common = {
    run_id: root.string("run_id"),
    scenario_name: root.string("scenario_name"),
    result: root.oneOf("result", RESULTS),
    reason_code: root.oneOf("reason_code", REASON_CODES),
    duration_ms: root.integer("duration_ms"),
    faults_injected: root.integer("faults_injected"),
    operations_observed: root.integer("operations_observed"),
    successful_operations: root.integer("successful_operations"),
    failed_operations: root.integer("failed_operations"),
    retries_observed: root.integer("retries_observed"),
    workload_exit_code: root.nullableInteger("workload_exit_code"),
  };
  const workload = root.object("workload", WORKLOAD_KEYS);
  const rest = {
    workload: {
      name: workload.string("name"),
      expected_exit_code: workload.integer("expected_exit_code"),
      exit_code: workload.nullableInteger("exit_code"),
      timed_out: workload.boolean("timed_out"),
      interrupted: workload.boolean("interrupted"),
    },
  };
  const fault = version === 1 ? faultV1(root) : version === 2 ? faultV2(root) : faultV3(root);
  const recovery = version === 1 ? recoveryV1(root) : recoveryV2(root);
  const timing = root.object("timing", TIMING_KEYS);
  const artifacts = root.object("artifacts", ARTIFACT_KEYS);
  const tail = {
    timing: { started_at: timing.timestamp("started_at"), completed_at: timing.timestamp("completed_at") },
    artifacts: {
      scenario: artifacts.oneOf("scenario", ["scenario.yaml"]),
      events: artifacts.oneOf("events", ["events.jsonl"]),
      stdout: artifacts.oneOf("stdout", ["stdout.log"]),
      stderr: artifacts.oneOf("stderr", ["stderr.log"]),
      dependency_stdout: artifacts.nullableOneOf("dependency_stdout", ["dependency.stdout.log"]),
      dependency_stderr: artifacts.nullableOneOf("dependency_stderr", ["dependency.stderr.log"]),
      report: artifacts.oneOf("report", ["report.json", "report.recovered.json"]),
    },
    diagnostics: root.stringList("diagnostics"),
  };
  return { schema_version: version, ...common, ...rest, fault, recovery, ...tail } as Report;
}

function faultV1(root: StrictObject): ReportFaultV1 {
  const fault = root.object("fault", FAULT_V1_KEYS);
  return {
    configured: fault.boolean("configured"),
    type: fault.nullableOneOf("type", FAULT_TYPES),
    injected: fault.boolean("injected"),
  };
}

function recoveryV1(root: StrictObject): ReportRecoveryV1 {
  const recovery = root.object("recovery", RECOVERY_V1_KEYS);
  return {
    observed: recovery.boolean("observed"),
    failed_operation_id: recovery.nullableString("failed_operation_id"),
    retry_operation_id: recovery.nullableString("retry_operation_id"),
    recovery_latency_ms: recovery.nullableInteger("recovery_latency_ms"),
  };
}

function faultV2(root: StrictObject): ReportFaultV2 {
  const fault = root.object("fault", FAULT_V2_KEYS);
  return {
    configured: fault.boolean("configured"),
    type: fault.nullableOneOf("type", FAULT_TYPES),
    injected: fault.boolean("injected"),
    scheduled_occurrences: fault.integerList("scheduled_occurrences"),
    completed_occurrences: fault.integerList("completed_occurrences"),
    schedule_completed: fault.boolean("schedule_completed"),
  };
}

function faultV3(root: StrictObject): ReportFaultV3 {
  const fault = root.object("fault", FAULT_V3_KEYS);
  return {
    configured: fault.boolean("configured"),
    type: fault.nullableOneOf("type", FAULT_TYPES),
    injected: fault.boolean("injected"),
    trigger: fault.raw("trigger") === null ? null : triggerV3(fault),
  };
}

function triggerV3(fault: StrictObject): ReportTriggerV3 {
  const raw = fault.raw("trigger");
  const kind = isJsonObject(raw) ? raw.kind : undefined;
  if (kind === "occurrence_schedule") {
    const trigger = fault.object("trigger", SCHEDULE_TRIGGER_KEYS);
    return {
      kind,
      scheduled_occurrences: trigger.integerList("scheduled_occurrences"),
      completed_occurrences: trigger.integerList("completed_occurrences"),
      completed: trigger.boolean("completed"),
    };
  }
  if (kind === "seeded_probability") {
    const trigger = fault.object("trigger", PROBABILITY_TRIGGER_KEYS);
    const window = trigger.object("window", WINDOW_KEYS);
    return {
      kind,
      probability: trigger.number("probability"),
      seed: trigger.bigInteger("seed"),
      window: {
        start_occurrence: window.integer("start_occurrence"),
        end_occurrence: window.integer("end_occurrence"),
      },
      evaluated_occurrences: trigger.integer("evaluated_occurrences"),
      selected_occurrences: trigger.integerList("selected_occurrences"),
      completed: trigger.boolean("completed"),
    };
  }
  throw invalidAt(isJsonObject(raw) ? `${fault.at("trigger")}.kind` : fault.at("trigger"));
}

function recoveryV2(root: StrictObject): ReportRecoveryV2 {
  const recovery = root.object("recovery", RECOVERY_V2_KEYS);
  return {
    required: recovery.integer("required"),
    successful: recovery.integer("successful"),
    evidence: recovery.objectList("evidence", EVIDENCE_KEYS).map(
      (row): ReportEvidenceRow => ({
        failed_operation_id: row.string("failed_operation_id"),
        retry_operation_id: row.nullableString("retry_operation_id"),
        recovery_latency_ms: row.nullableInteger("recovery_latency_ms"),
      }),
    ),
  };
}
