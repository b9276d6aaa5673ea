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
import { FIELD, type Fields, integerLiteral, isJsonObject, StrictObject } from "./strict-json.js";
import type {
  Report,
  ReportArtifacts,
  ReportFaultV1,
  ReportFaultV2,
  ReportFaultV3,
  ReportRecoveryV1,
  ReportRecoveryV2,
  ReportSchemaVersion,
} from "./types.js";

const TOP_LEVEL_KEYS = [...HEAD_KEYS, "fault", "recovery", ...TAIL_KEYS];

const ARTIFACTS: Fields<ReportArtifacts> = {
  scenario: FIELD.oneOf(["scenario.yaml"]),
  events: FIELD.oneOf(["events.jsonl"]),
  stdout: FIELD.oneOf(["stdout.log"]),
  stderr: FIELD.oneOf(["stderr.log"]),
  dependency_stdout: FIELD.nullableOneOf(["dependency.stdout.log"]),
  dependency_stderr: FIELD.nullableOneOf(["dependency.stderr.log"]),
  report: FIELD.oneOf(["report.json", "report.recovered.json"]),
};
const FAULT_V1: Fields<ReportFaultV1> = {
  configured: FIELD.boolean,
  type: FIELD.nullableOneOf(LEGACY_FAULT_TYPES),
  injected: FIELD.boolean,
};
const FAULTS = {
  1: FAULT_V1,
  2: {
    ...FAULT_V1,
    scheduled_occurrences: FIELD.integerList,
    completed_occurrences: FIELD.integerList,
    schedule_completed: FIELD.boolean,
  } satisfies Fields<ReportFaultV2>,
  3: {
    ...FAULT_V1,
    trigger: (fault, key) => (fault.raw(key) === null ? null : readScheduleOrWindow(fault)),
  } satisfies Fields<ReportFaultV3>,
};
const RECOVERY_V1: Fields<ReportRecoveryV1> = {
  observed: FIELD.boolean,
  failed_operation_id: FIELD.nullableString,
  retry_operation_id: FIELD.nullableString,
  recovery_latency_ms: FIELD.nullableInteger,
};
const RECOVERY_V2: Fields<ReportRecoveryV2> = {
  required: FIELD.integer,
  successful: FIELD.integer,
  evidence: (recovery) => readEvidenceRows(recovery),
};

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
  const fault = root.record<ReportFaultV1>("fault", FAULTS[version]);
  const recovery = root.record<ReportRecoveryV1 | ReportRecoveryV2>(
    "recovery",
    version === 1 ? RECOVERY_V1 : RECOVERY_V2,
  );
  const tail = {
    timing: readTiming(root),
    artifacts: root.record("artifacts", ARTIFACTS),
    diagnostics: root.stringList("diagnostics"),
  };
  return { schema_version: version, ...head, fault, recovery, ...tail } as Report;
}
