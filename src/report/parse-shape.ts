/**
 * Shapes and types of the report schemas 1–3 (schema 4: parse-shape-v4.ts): turns a parsed JSON
 * tree into a typed `Report`.
 * Value and cross-field rules (negative counts, schedules, outcome, ...) live in `rules/`.
 */
import { LEGACY_FAULT_TYPES } from "../scenario/legacy/types.js";
import { invalidAt, ReportError } from "./errors.js";
import { parseFaultListReportShape } from "./parse-shape-v4.js";
import { readScheduleOrWindow } from "./read-trigger.js";
import { REASON_CODES } from "./rules/reasons.js";
import { HEAD_KEYS, readEvidenceRows, readHead, readTiming, TAIL_KEYS } from "./shape-common.js";
import { integerLiteral, isJsonObject, StrictObject } from "./strict-json.js";
import type {
  Report,
  ReportFaultV1,
  ReportFaultV2,
  ReportFaultV3,
  ReportRecoveryV1,
  ReportRecoveryV2,
  ReportSchemaVersion,
} from "./types.js";

const TOP_LEVEL_KEYS = [...HEAD_KEYS, "fault", "recovery", ...TAIL_KEYS];

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

/** `schema_version` must be the integer 1, 2, 3, 4 or 5; anything else (or nothing) is unsupported. */
export function schemaVersionOf(document: unknown): ReportSchemaVersion {
  if (!isJsonObject(document)) throw invalidAt(null);
  const version = Object.hasOwn(document, "schema_version") ? integerLiteral(document.schema_version) : null;
  if (version === 1n || version === 2n || version === 3n || version === 4n || version === 5n)
    return Number(version) as ReportSchemaVersion;
  throw new ReportError("REPORT_SCHEMA_UNSUPPORTED");
}

/** Reads the whole document strictly into a typed report of its schema. */
export function parseReportShape(document: unknown): Report {
  const version = schemaVersionOf(document);
  if (version === 4 || version === 5) return parseFaultListReportShape(document, version);
  const root = StrictObject.of(document, "", TOP_LEVEL_KEYS);
  const head = readHead(root, REASON_CODES);
  const fault = version === 1 ? faultV1(root) : version === 2 ? faultV2(root) : faultV3(root);
  const recovery = version === 1 ? recoveryV1(root) : recoveryV2(root);
  const timing = readTiming(root);
  const artifacts = root.object("artifacts", ARTIFACT_KEYS);
  const tail = {
    timing,
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
  return { schema_version: version, ...head, fault, recovery, ...tail } as Report;
}

/** The keys every fault of schemas 1–3 starts with, from the object already checked. */
function faultHead(fault: StrictObject): ReportFaultV1 {
  return {
    configured: fault.boolean("configured"),
    type: fault.nullableOneOf("type", LEGACY_FAULT_TYPES),
    injected: fault.boolean("injected"),
  };
}

function faultV1(root: StrictObject): ReportFaultV1 {
  return faultHead(root.object("fault", FAULT_V1_KEYS));
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
    ...faultHead(fault),
    scheduled_occurrences: fault.integerList("scheduled_occurrences"),
    completed_occurrences: fault.integerList("completed_occurrences"),
    schedule_completed: fault.boolean("schedule_completed"),
  };
}

function faultV3(root: StrictObject): ReportFaultV3 {
  const fault = root.object("fault", FAULT_V3_KEYS);
  return {
    ...faultHead(fault),
    trigger: fault.raw("trigger") === null ? null : readScheduleOrWindow(fault),
  };
}

function recoveryV2(root: StrictObject): ReportRecoveryV2 {
  const recovery = root.object("recovery", RECOVERY_V2_KEYS);
  return {
    required: recovery.integer("required"),
    successful: recovery.integer("successful"),
    evidence: readEvidenceRows(recovery),
  };
}
