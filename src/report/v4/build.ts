/**
 * Builds report schema 4 (docs/reports.md) from a schema-2 scenario and its
 * analysis. Pure. Keys in file order: the schema-2 head, `dependencies`, `faults`, `recovery`,
 * `checks`, then `timing`, `artifacts`, `diagnostics`.
 */

import type { RunAnalysis } from "../../analysis/types.js";
import { eventsSchemaOf } from "../../scenario/additions.js";
import { safeUrl } from "../../scenario/safe-url.js";
import type { Dependency, Scenario } from "../../scenario/types.js";
import { AgentChaosError } from "../../support/errors.js";
import { RUN_FILES, reportHead, reportTiming } from "../build.js";
import type { ReportArtifactsV4, ReportDependencyV4, ReportFaultV4, ReportV4 } from "../types-v4.js";
import { faultParameters, reportTarget } from "./fault-parameters.js";
import { reportTrigger } from "./lasting-trigger.js";
import { reportTruth } from "./truth.js";

export interface BuildReportV4Input {
  readonly scenario: Scenario;
  readonly analysis: RunAnalysis;
  readonly runId: string;
  /** Names of the dependencies the run started (`start`), which have log files under `dependencies/`. */
  readonly managedDependencies: readonly string[];
}

function mismatch(): AgentChaosError {
  return new AgentChaosError(
    "REPORT_EVIDENCE_MISMATCH",
    "The analysed evidence does not match the scenario's dependencies and faults.",
  );
}

/** The recorded base URL, else the configured one when it needs no port; never for `mcp_stdio`. */
function baseUrl(dependency: Dependency, recorded: string | null): string | null {
  if (dependency.type === "mcp_stdio") return null;
  if (recorded !== null) return recorded;
  return dependency.usesPortPlaceholder ? null : safeUrl(dependency.baseUrl);
}

function dependencies(input: BuildReportV4Input): ReportDependencyV4[] {
  const managed = new Set(input.managedDependencies);
  return input.scenario.dependencies.map((dependency, index) => {
    const evidence = input.analysis.dependencies[index];
    if (evidence?.name !== dependency.name) throw mismatch();
    return {
      name: dependency.name,
      type: dependency.type,
      protocol: dependency.type === "mcp_stdio" ? "mcp" : dependency.protocol,
      base_url: baseUrl(dependency, evidence.baseUrl),
      managed: managed.has(dependency.name),
      operations_observed: evidence.operationsObserved,
      failed_operations: evidence.failedOperations,
    };
  });
}

function faults(input: BuildReportV4Input): ReportFaultV4[] {
  return input.scenario.faults.map((fault, index) => {
    const evidence = input.analysis.faults[index];
    if (evidence?.id !== fault.id) throw mismatch();
    return {
      id: fault.id,
      dependency: fault.dependency,
      type: fault.type,
      expect: fault.expect,
      target: reportTarget(fault.target),
      parameters: faultParameters(fault),
      injected: evidence.injected,
      not_applied: evidence.notApplied,
      trigger: reportTrigger(evidence.trigger),
      recovery: { required: evidence.recovery.required, successful: evidence.recovery.successful },
    };
  });
}

function artifacts(input: BuildReportV4Input): ReportArtifactsV4 {
  const managed = new Set(input.managedDependencies);
  const logs = input.scenario.dependencies
    .filter((dependency) => managed.has(dependency.name))
    .map((dependency) => [
      dependency.name,
      {
        stdout: `dependencies/${dependency.name}.stdout.log`,
        stderr: `dependencies/${dependency.name}.stderr.log`,
      },
    ]);
  return {
    ...RUN_FILES,
    dependencies: Object.fromEntries(logs),
    report: "report.json",
  };
}

/** The schema-4 report of a finished schema-2 run. */
export function buildReportV4(input: BuildReportV4Input): ReportV4 {
  const { analysis } = input;
  return {
    schema_version: eventsSchemaOf(input.scenario) === 3 ? 5 : 4,
    ...reportHead(input),
    dependencies: dependencies(input),
    faults: faults(input),
    recovery: {
      mode: analysis.recovery.mode,
      required: analysis.recovery.required,
      successful: analysis.recovery.successful,
      evidence: analysis.recovery.rows.map((row) => ({
        fault_id: row.faultId,
        failed_operation_id: row.failedOperationId,
        retry_operation_id: row.retryOperationId,
        recovery_latency_ms: row.recoveryLatencyMs,
      })),
    },
    checks: analysis.checks.map((check) => ({
      name: check.name,
      mode: check.mode,
      passed: check.passed,
      findings: check.findings.map((finding) => ({ ...finding })),
    })),
    ...reportTruth(input.scenario, analysis),
    timing: reportTiming(analysis),
    artifacts: artifacts(input),
    diagnostics: [...analysis.diagnostics],
  };
}
