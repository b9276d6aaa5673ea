/**
 * A schema-1 scenario in the internal schema-2 model: its one dependency becomes the http
 * dependency `api`, its fault (if any) that dependency's one fault (`expect: recover`),
 * `recovery: fifo`, every check off. What schema 2 cannot say stays beside it in `legacy`:
 * the original scenario (its analysis and report keep their schema). Its `proxy_url_env` is the
 * dependency's `url_env`, and the dependency is `unnamed` (schema 1's workload variables, log
 * files and messages). `{port}` stays literal (the dependency never uses a placeholder),
 * and the workload env values are escaped so that schema 2's interpolation gives them back as
 * written. See docs/scenario.md.
 */

import { DEFAULT_CHECKS } from "../checks.js";
import type { ChecksConfig, Fault, HttpDependency, Scenario } from "../types.js";
import type { LegacyFault, LegacyScenario } from "./types.js";

/** The name a schema-1 scenario's dependency takes in the internal model. */
export const LEGACY_DEPENDENCY = "api";

/** The id a schema-1 scenario's one fault takes in the internal model. */
export const LEGACY_FAULT_ID = "fault";

/** What a schema-1 scenario says that schema 2 cannot. */
export interface LegacyParts {
  /** The scenario as validated (schema 1). */
  readonly source: LegacyScenario;
}

/** A schema-2 scenario upgraded from schema 1. */
export interface UpgradedScenario extends Scenario {
  readonly legacy: LegacyParts;
}

/** A scenario in the internal model: schema 2, or schema 1 upgraded. */
export type RunScenario = Scenario & { readonly legacy?: LegacyParts };

/** Every check off, its parameters the defaults. */
const CHECKS_OFF = Object.fromEntries(
  Object.entries(DEFAULT_CHECKS).map(([name, check]) => [name, { ...check, mode: "off" }]),
) as unknown as ChecksConfig;

/** `$` written twice: schema 2 reads `$$` as one literal `$`, so every value stays as written. */
export function escapeDollars(value: string): string {
  return value.replace(/\$/g, () => "$$");
}

/** A schema-1 fault as the internal model holds it (the id and dependency every schema-1 run uses). */
export function upgradeFault(fault: LegacyFault): Fault {
  const base = {
    id: LEGACY_FAULT_ID,
    dependency: LEGACY_DEPENDENCY,
    target: { kind: "http" as const, method: fault.target.method, path: fault.target.path },
    trigger: fault.trigger,
    expect: "recover" as const,
  };
  switch (fault.type) {
    case "http_latency":
      return { ...base, type: fault.type, latencyMs: fault.latencyMs, jitterMs: null, jitterSeed: null };
    case "http_error":
      return { ...base, type: fault.type, statusCode: fault.statusCode };
    case "http_rate_limit":
      return { ...base, type: fault.type, retryAfterSeconds: fault.retryAfterSeconds };
    case "http_malformed_json":
    case "http_disconnect":
      return { ...base, type: fault.type };
  }
}

/** A scenario of either schema in the internal model (a schema-1 one is upgraded; see `loadScenario`). */
export function toRunScenario(scenario: LegacyScenario | RunScenario): RunScenario {
  return scenario.schemaVersion === 1 ? upgradeScenario(scenario) : scenario;
}

/** The `schema_version` of the file a loaded scenario was read from. */
export function fileSchemaOf(scenario: RunScenario): 1 | 2 {
  return scenario.legacy === undefined ? 2 : 1;
}

/** The internal model of a validated schema-1 scenario. */
export function upgradeScenario(scenario: LegacyScenario): UpgradedScenario {
  const { dependency, workload } = scenario;
  const api: HttpDependency = {
    name: LEGACY_DEPENDENCY,
    type: "http",
    baseUrl: dependency.baseUrl,
    start: dependency.start,
    // `proxy_url_env`: one more variable holding the proxy URL.
    urlEnv: workload.proxyUrlEnv,
    protocol: "http",
    ignoreJsonFields: [],
    usesPortPlaceholder: false,
    countStreamEvents: false,
  };
  return {
    schemaVersion: 2,
    name: scenario.name,
    dependencies: [api],
    workload: {
      name: workload.name,
      command: workload.command,
      cwd: workload.cwd,
      env: Object.fromEntries(
        Object.entries(workload.env).map(([key, value]) => [key, escapeDollars(value)]),
      ),
    },
    faults: scenario.fault === null ? [] : [upgradeFault(scenario.fault)],
    recovery: "fifo",
    checks: CHECKS_OFF,
    success: scenario.success,
    timeoutSeconds: scenario.timeoutSeconds,
    sourcePath: scenario.sourcePath,
    dependencyNaming: "unnamed",
    legacy: { source: scenario },
  };
}
