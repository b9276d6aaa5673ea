/**
 * A validated scenario: plain data, no behaviour. Produced by `loadScenario`,
 * consumed by the runtime, the proxy and the analyzer (see docs/scenario.md).
 */

export type FaultType =
  | "http_latency"
  | "http_error"
  | "http_rate_limit"
  | "http_malformed_json"
  | "http_disconnect";

export const FAULT_TYPES: readonly FaultType[] = [
  "http_latency",
  "http_error",
  "http_rate_limit",
  "http_malformed_json",
  "http_disconnect",
];

export interface CommandSpec {
  /** argv; command[0] is looked up on PATH, never run through a shell. */
  readonly command: readonly [string, ...string[]];
  /** Absolute working directory (relative paths already resolved against the scenario's folder). */
  readonly cwd: string;
  /** Overrides laid over the parent environment. */
  readonly env: Readonly<Record<string, string>>;
}

export interface Readiness {
  readonly path: string;
  readonly timeoutSeconds: number;
}

export interface DependencyStart extends CommandSpec {
  readonly readiness: Readiness;
}

export interface Dependency {
  readonly type: "http";
  /** As written in the file (may contain user info; never print it, use `safeUrl`). */
  readonly baseUrl: string;
  readonly start: DependencyStart | null;
}

export interface Workload extends CommandSpec {
  readonly name: string | null;
  readonly proxyUrlEnv: string | null;
}

export interface Target {
  /** Upper case, or null for "every method". */
  readonly method: string | null;
  readonly path: string;
}

export interface OccurrenceScheduleTrigger {
  readonly kind: "occurrence_schedule";
  /** Strictly increasing positive integers; `occurrence: N` becomes `[N]`. */
  readonly occurrences: readonly number[];
}

export interface SeededProbabilityTrigger {
  readonly kind: "seeded_probability";
  /** The probability as a JS number (for JSON output). */
  readonly probability: number;
  /** The probability as an exact integer number of millionths (0.5 -> 500000). */
  readonly probabilityMillionths: number;
  /** 0 .. 2^64-1, exact. */
  readonly seed: bigint;
  readonly window: { readonly startOccurrence: number; readonly endOccurrence: number };
}

export type Trigger = OccurrenceScheduleTrigger | SeededProbabilityTrigger;

interface FaultBase {
  readonly target: Target;
  readonly trigger: Trigger;
}

export interface LatencyFault extends FaultBase {
  readonly type: "http_latency";
  readonly latencyMs: number;
}
export interface HttpErrorFault extends FaultBase {
  readonly type: "http_error";
  readonly statusCode: number;
}
export interface RateLimitFault extends FaultBase {
  readonly type: "http_rate_limit";
  readonly retryAfterSeconds: number;
}
export interface MalformedJsonFault extends FaultBase {
  readonly type: "http_malformed_json";
}
export interface DisconnectFault extends FaultBase {
  readonly type: "http_disconnect";
}

export type Fault = LatencyFault | HttpErrorFault | RateLimitFault | MalformedJsonFault | DisconnectFault;

export interface Scenario {
  readonly schemaVersion: 1;
  readonly name: string;
  readonly dependency: Dependency;
  readonly workload: Workload;
  readonly fault: Fault | null;
  readonly success: { readonly exitCode: number };
  /** Seconds, positive, default 60. */
  readonly timeoutSeconds: number;
  /** Absolute path of the scenario file it was loaded from. */
  readonly sourcePath: string;
}
