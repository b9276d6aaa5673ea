/**
 * Report schema 4 (docs/reports.md "Schema 4"), written for every schema-2 scenario:
 * every top-level key of schema 2 except `fault`, plus `dependencies`, `faults`, `checks`, a
 * recovery with its mode and fault ids, and per-dependency log artifacts. Key order as in the file.
 */
import type { DependencyEvidence, FaultEvidence, Recovery } from "../analysis/types.js";
import type { CheckOutcome, Finding } from "../checks/types.js";
import type { Expectation, FaultType, HttpTarget, McpTarget } from "../scenario/types.js";
import type { SnakeCased } from "./snake-cased.js";
import type { ReportArtifacts, ReportEvidenceRow, ReportHead, ReportTiming } from "./types.js";
import type { ReportTriggerV4 } from "./v4/lasting-trigger.js";
import type { ReportTruth } from "./v4/truth.js";

/** A dependency's evidence (`base_url`: null for `mcp_stdio` and when no port was ever picked) and kind. */
export interface ReportDependencyV4 extends SnakeCased<DependencyEvidence> {
  readonly type: "http" | "mcp_stdio";
  readonly protocol: "http" | "mcp";
  readonly managed: boolean;
}

/** A fault's target as the scenario gives it, without its kind. */
export type ReportHttpTargetV4 = Omit<HttpTarget, "kind">;
export type ReportMcpTargetV4 = Omit<McpTarget, "kind">;

export type ReportTargetV4 = ReportHttpTargetV4 | ReportMcpTargetV4;

/** Every own key of the fault, as the scenario names it (integers, strings and booleans). */
export type ReportFaultParametersV4 = Readonly<Record<string, number | string | boolean>>;

/** A fault as the scenario gives it, with its evidence (the trigger object counted on its selections). */
export interface ReportFaultV4
  extends SnakeCased<Pick<FaultEvidence, "id" | "injected" | "notApplied" | "recovery">> {
  readonly dependency: string;
  readonly type: FaultType;
  readonly expect: Expectation;
  readonly target: ReportTargetV4;
  readonly parameters: ReportFaultParametersV4;
  readonly trigger: ReportTriggerV4;
}

/** In the file `fault_id` comes first, then the keys of schemas 2 and 3. */
export interface ReportEvidenceRowV4 extends ReportEvidenceRow {
  readonly fault_id: string;
}

/** The analysis's mode and counts; `evidence`: every row, of every fault, in sequence order of the failures. */
export type ReportRecoveryV4 = Omit<Recovery, "rows"> & { readonly evidence: readonly ReportEvidenceRowV4[] };

export type ReportFindingV4 = Finding;

/** A check's outcome without its diagnostics (`passed` null: not evaluated, the workload never ran). */
export type ReportCheckV4 = Omit<CheckOutcome, "diagnostics">;

export interface ReportDependencyLogsV4 {
  readonly stdout: string;
  readonly stderr: string;
}

/** Schema 2's artifacts with one entry per managed dependency in place of the dependency's two logs. */
export interface ReportArtifactsV4 extends Omit<ReportArtifacts, "dependency_stdout" | "dependency_stderr"> {
  /** `dependencies/<name>.stdout.log` and `.stderr.log`. */
  readonly dependencies: Readonly<Record<string, ReportDependencyLogsV4>>;
}

export interface ReportV4 extends ReportHead, ReportTruth {
  /** 5 for a run whose scenario uses an addition (docs/reports.md "Report schema 5"). */
  readonly schema_version: 4 | 5;
  readonly dependencies: readonly ReportDependencyV4[];
  readonly faults: readonly ReportFaultV4[];
  readonly recovery: ReportRecoveryV4;
  readonly checks: readonly ReportCheckV4[];
  readonly timing: ReportTiming;
  readonly artifacts: ReportArtifactsV4;
  readonly diagnostics: readonly string[];
}
