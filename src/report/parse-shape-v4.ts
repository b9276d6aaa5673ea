/**
 * Shapes and types of report schema 4 (docs/reports.md): turns a parsed JSON tree into a typed
 * `ReportV4`. Cross-field rules live in `rules/v4/`.
 */
import { CHECK_NAMES } from "../checks/registry.js";
import type { Finding } from "../checks/types.js";
import { FAULT_TYPES } from "../scenario/types.js";
import { invalidAt } from "./errors.js";
import { readFaultTrigger } from "./read-trigger.js";
import { FAULT_LIST_REASON_CODES } from "./rules/reasons.js";
import { HEAD_KEYS, readEvidenceRows, readHead, readTiming, TAIL_KEYS } from "./shape-common.js";
import {
  childPath,
  FIELD,
  type Fields,
  isJsonObject,
  keyPathOf,
  StrictObject,
  safeInteger,
} from "./strict-json.js";
import type {
  ReportArtifactsV4,
  ReportCheckV4,
  ReportDependencyV4,
  ReportFaultParametersV4,
  ReportFaultV4,
  ReportRecoveryV4,
  ReportTargetV4,
  ReportV4,
} from "./types-v4.js";
import { readTruth, truthKeysIn } from "./v4/truth.js";

const TOP_LEVEL_KEYS = [...HEAD_KEYS, "dependencies", "faults", "recovery", "checks", ...TAIL_KEYS];
const ARTIFACT_KEYS = ["scenario", "events", "stdout", "stderr", "dependencies", "report"];
const LOG_KEYS = ["stdout", "stderr"];

/** The names the scenario allows (docs/scenario.md); a report naming anything else is invalid. */
const DEPENDENCY_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const FAULT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const PARAMETER_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Finding keys per check: `id` (a non-empty string) or `count` (an integer). */
type FindingShape = Readonly<Record<string, "id" | "count">>;
const FINDING_SHAPES: Readonly<Record<ReportCheckV4["name"], readonly FindingShape[]>> = {
  retry_after: [{ operation_id: "id", failed_operation_id: "id", retry_after_ms: "count", gap_ms: "count" }],
  retry_storm: [
    { first_operation_id: "id", operations: "count" },
    { operation_id: "id", failed_operation_id: "id", gap_ms: "count" },
  ],
  duplicate_writes: [{ operation_id: "id", duplicate_operation_id: "id" }],
  fail_fast: [{ operation_id: "id", waited_ms: "count" }],
  cancellation: [{ operation_id: "id" }],
};

function named(object: StrictObject, key: string, pattern: RegExp): string {
  const value = object.string(key);
  if (!pattern.test(value)) throw invalidAt(object.at(key));
  return value;
}

const DEPENDENCY: Fields<ReportDependencyV4> = {
  name: (item, key) => named(item, key, DEPENDENCY_NAME),
  type: FIELD.oneOf(["http", "mcp_stdio"]),
  protocol: FIELD.oneOf(["http", "mcp"]),
  base_url: FIELD.nullableString,
  managed: FIELD.boolean,
  operations_observed: FIELD.integer,
  failed_operations: FIELD.integer,
};

function target(fault: StrictObject): ReportTargetV4 {
  const raw = fault.raw("target");
  if (isJsonObject(raw) && Object.hasOwn(raw, "path")) {
    const http = fault.object("target", ["method", "path"]);
    return { method: http.nullableString("method"), path: http.string("path") };
  }
  const mcp = fault.object("target", ["method", "name"]);
  return { method: mcp.nullableString("method"), name: mcp.nullableString("name") };
}

/** Parameters: well-named keys holding integers, strings or booleans. */
function parameters(fault: StrictObject): ReportFaultParametersV4 {
  const path = fault.at("parameters");
  const result: Record<string, number | string | boolean> = {};
  for (const [key, value] of fault.entries("parameters")) {
    if (!PARAMETER_NAME.test(key)) throw invalidAt(keyPathOf(path, key));
    if (typeof value === "string" || typeof value === "boolean") result[key] = value;
    else result[key] = safeInteger(value, childPath(path, key));
  }
  return result;
}

const FAULT_RECOVERY: Fields<ReportFaultV4["recovery"]> = {
  required: FIELD.integer,
  successful: FIELD.integer,
};
const FAULT: Fields<ReportFaultV4> = {
  id: (item, key) => named(item, key, FAULT_ID),
  dependency: (item, key) => named(item, key, DEPENDENCY_NAME),
  type: FIELD.oneOf(FAULT_TYPES),
  expect: FIELD.oneOf(["recover", "handle", "give_up"]),
  target,
  parameters,
  injected: FIELD.integer,
  not_applied: FIELD.integer,
  trigger: readFaultTrigger,
  recovery: (item, key) => item.record(key, FAULT_RECOVERY),
};

/** A fault, its recovery's keys checked before any value is read. */
function fault(item: StrictObject): ReportFaultV4 {
  item.object("recovery", Object.keys(FAULT_RECOVERY));
  return item.read(FAULT);
}

const RECOVERY: Fields<ReportRecoveryV4> = {
  mode: FIELD.oneOf(["chain", "fifo"]),
  required: FIELD.integer,
  successful: FIELD.integer,
  evidence: (object) =>
    readEvidenceRows<{ fault_id: string }>(object, { fault_id: (row, key) => named(row, key, FAULT_ID) }),
};

/** A finding of one of its check's shapes: the shape that has most of its keys. */
function finding(value: unknown, path: string, shapes: readonly FindingShape[]): Finding {
  const keys = isJsonObject(value) ? Object.keys(value) : [];
  const shared = (shape: FindingShape) => keys.filter((key) => Object.hasOwn(shape, key)).length;
  const shape = shapes.reduce((best, candidate) => (shared(candidate) > shared(best) ? candidate : best));
  const object = StrictObject.of(value, path, Object.keys(shape));
  const result: Record<string, string | number> = {};
  for (const [key, kind] of Object.entries(shape)) {
    const id = kind === "id" ? object.string(key) : null;
    if (id === "") throw invalidAt(object.at(key));
    result[key] = id ?? object.integer(key);
  }
  return result as unknown as Finding;
}

const CHECK: Fields<ReportCheckV4> = {
  name: FIELD.oneOf(CHECK_NAMES),
  mode: FIELD.oneOf(["report", "enforce"]),
  passed: (item, key) => item.nullableBoolean(key),
  findings: (item, key) => {
    const shapes = FINDING_SHAPES[item.oneOf("name", CHECK_NAMES)];
    return item.items(key).map((value, index) => finding(value, childPath(item.at(key), index), shapes));
  },
};

function artifacts(root: StrictObject): ReportArtifactsV4 {
  const object = root.object("artifacts", ARTIFACT_KEYS);
  const path = object.at("dependencies");
  const dependencies: Record<string, { stdout: string; stderr: string }> = {};
  for (const [name, value] of object.entries("dependencies")) {
    if (!DEPENDENCY_NAME.test(name)) throw invalidAt(keyPathOf(path, name));
    const logs = StrictObject.of(value, childPath(path, name), LOG_KEYS);
    dependencies[name] = { stdout: logs.string("stdout"), stderr: logs.string("stderr") };
  }
  return {
    scenario: object.string("scenario"),
    events: object.string("events"),
    stdout: object.string("stdout"),
    stderr: object.string("stderr"),
    dependencies,
    report: object.string("report"),
  };
}

/**
 * Reads a schema-4 or schema-5 document strictly (its `schema_version` already read). Schema 5 is
 * schema 4's shape written by runs with an addition (docs/reports.md "Report schema 5").
 */
export function parseFaultListReportShape(document: unknown, version: 4 | 5 = 4): ReportV4 {
  const truthKeys = version === 5 ? truthKeysIn(document) : [];
  const root = StrictObject.of(document, "", [...TOP_LEVEL_KEYS, ...truthKeys]);
  const head = readHead(root, FAULT_LIST_REASON_CODES);
  const dependencies = root.recordList("dependencies", DEPENDENCY);
  const faults = root.objectList("faults", Object.keys(FAULT)).map(fault);
  const recovery = root.record("recovery", RECOVERY);
  const checks = root.recordList("checks", CHECK);
  const timing = readTiming(root);
  return {
    schema_version: version,
    ...head,
    dependencies,
    faults,
    recovery,
    checks,
    ...readTruth(root, truthKeys),
    timing,
    artifacts: artifacts(root),
    diagnostics: root.stringList("diagnostics"),
  };
}
