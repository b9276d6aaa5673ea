/**
 * A validated scenario: plain data, no behaviour. Produced by `loadScenario`,
 * consumed by the runtime, the proxy and the analyzer (see docs/scenario.md).
 */

import type { ClassicHttpFaultType, CommandSpec, DependencyStart, OccurrenceTrigger } from "../types.js";

/** The five fault types of schema 1, which schema 2 keeps as they are. */
export type LegacyFaultType = ClassicHttpFaultType;

export const LEGACY_FAULT_TYPES: readonly LegacyFaultType[] = [
  "http_latency",
  "http_error",
  "http_rate_limit",
  "http_malformed_json",
  "http_disconnect",
];

export interface LegacyDependency {
  readonly type: "http";
  /** As written in the file (may contain user info; never print it, use `safeUrl`). */
  readonly baseUrl: string;
  readonly start: DependencyStart | null;
}

export interface LegacyWorkload extends CommandSpec {
  readonly name: string | null;
  readonly proxyUrlEnv: string | null;
}

export interface LegacyTarget {
  /** Upper case, or null for "every method". */
  readonly method: string | null;
  readonly path: string;
}

interface LegacyFaultBase {
  readonly target: LegacyTarget;
  readonly trigger: OccurrenceTrigger;
}

export interface LegacyLatencyFault extends LegacyFaultBase {
  readonly type: "http_latency";
  readonly latencyMs: number;
}
export interface LegacyHttpErrorFault extends LegacyFaultBase {
  readonly type: "http_error";
  readonly statusCode: number;
}
export interface LegacyRateLimitFault extends LegacyFaultBase {
  readonly type: "http_rate_limit";
  readonly retryAfterSeconds: number;
}
export interface LegacyMalformedJsonFault extends LegacyFaultBase {
  readonly type: "http_malformed_json";
}
export interface LegacyDisconnectFault extends LegacyFaultBase {
  readonly type: "http_disconnect";
}

export type LegacyFault =
  | LegacyLatencyFault
  | LegacyHttpErrorFault
  | LegacyRateLimitFault
  | LegacyMalformedJsonFault
  | LegacyDisconnectFault;

export interface LegacyScenario {
  readonly schemaVersion: 1;
  readonly name: string;
  readonly dependency: LegacyDependency;
  readonly workload: LegacyWorkload;
  readonly fault: LegacyFault | null;
  readonly success: { readonly exitCode: number };
  /** Seconds, positive, default 60. */
  readonly timeoutSeconds: number;
  /** Absolute path of the scenario file it was loaded from. */
  readonly sourcePath: string;
}
