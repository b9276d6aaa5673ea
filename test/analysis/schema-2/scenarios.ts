/** Validated schema-2 scenarios (plain data) for analyzer and report tests. */
import type {
  CheckMode,
  ChecksConfig,
  Dependency,
  Expectation,
  Fault,
  HttpDependency,
  HttpErrorFault,
  OccurrenceTrigger,
  RecoveryMode,
  Scenario,
  Target,
} from "../../../src/scenario/types.js";

export function httpDependency(name: string, options: { managed?: boolean } = {}): HttpDependency {
  return {
    name,
    type: "http",
    baseUrl: options.managed === true ? "http://127.0.0.1:{port}" : "http://127.0.0.1:8001",
    start:
      options.managed === true
        ? {
            command: ["node", "server.mjs", "--port", "{port}"],
            cwd: "/tmp",
            env: {},
            readiness: { path: "/health", timeoutSeconds: 15 },
          }
        : null,
    urlEnv: null,
    protocol: "http",
    ignoreJsonFields: [],
    usesPortPlaceholder: options.managed === true,
  };
}

export function mcpStdioDependency(name: string): Dependency {
  return { name, type: "mcp_stdio", command: ["node", "notes.mjs"], cwd: "/tmp", env: {} };
}

export const schedule = (...occurrences: number[]): OccurrenceTrigger => ({
  kind: "occurrence_schedule",
  occurrences,
});

export function probability(options: {
  millionths: number;
  seed: bigint;
  start: number;
  end: number;
}): OccurrenceTrigger {
  return {
    kind: "seeded_probability",
    probability: options.millionths / 1_000_000,
    probabilityMillionths: options.millionths,
    seed: options.seed,
    window: { startOccurrence: options.start, endOccurrence: options.end },
  };
}

export interface FaultOptions {
  readonly dependency?: string;
  readonly trigger?: OccurrenceTrigger;
  readonly expect?: Expectation;
  readonly target?: Target;
  readonly statusCode?: number;
}

/** An `http_error` fault (503 on `GET /customer/*` at occurrence 1 of `api` unless told). */
export function httpError(id: string, options: FaultOptions = {}): HttpErrorFault {
  return {
    id,
    type: "http_error",
    dependency: options.dependency ?? "api",
    target: options.target ?? { kind: "http", method: "GET", path: "/customer/*" },
    trigger: options.trigger ?? schedule(1),
    expect: options.expect ?? "recover",
    statusCode: options.statusCode ?? 503,
  };
}

export interface ScenarioOptions {
  readonly dependencies?: readonly Dependency[];
  readonly faults?: readonly Fault[];
  readonly recovery?: RecoveryMode;
  readonly checks?: {
    readonly retry_after?: CheckMode;
    readonly retry_storm?: CheckMode;
    readonly duplicate_writes?: CheckMode;
    readonly fail_fast?: CheckMode;
    readonly cancellation?: CheckMode;
    readonly maxMs?: number;
    readonly maxAttempts?: number;
    readonly minGapMs?: number;
  };
  readonly exitCode?: number;
}

export function checksConfig(options: ScenarioOptions["checks"] = {}): ChecksConfig {
  return {
    retry_after: { mode: options.retry_after ?? "enforce", dependencies: null },
    retry_storm: {
      mode: options.retry_storm ?? "report",
      maxAttempts: options.maxAttempts ?? 5,
      minGapMs: options.minGapMs ?? 100,
      dependencies: null,
    },
    duplicate_writes: {
      mode: options.duplicate_writes ?? "report",
      dependencies: null,
      methods: ["POST", "PATCH"],
      paths: null,
    },
    fail_fast: { mode: options.fail_fast ?? "off", maxMs: options.maxMs ?? 30000 },
    cancellation: { mode: options.cancellation ?? "off" },
  };
}

export function scenarioV2(options: ScenarioOptions = {}): Scenario {
  return {
    schemaVersion: 2,
    name: "test-scenario",
    dependencies: options.dependencies ?? [httpDependency("api")],
    workload: { command: ["node", "agent.mjs"], cwd: "/tmp", env: {}, name: "demo-agent" },
    faults: options.faults ?? [],
    recovery: options.recovery ?? "chain",
    checks: checksConfig(options.checks),
    success: { exitCode: options.exitCode ?? 0 },
    timeoutSeconds: 60,
    sourcePath: "/tmp/scenario.yaml",
  };
}
