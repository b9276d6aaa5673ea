/**
 * A validated scenario: plain data, no behaviour. Produced by `loadScenario`,
 * consumed by the runtime, the proxy and the analyzer (see docs/scenario.md).
 */

import type {
  ClassicHttpFaultType,
  CommandSpec,
  DependencyStart,
  HttpTarget,
  OccurrenceTrigger,
} from "../types.js";

/** The five fault types of schema 1, which schema 2 keeps as they are. */
export const LEGACY_FAULT_TYPES: readonly ClassicHttpFaultType[] = [
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

/** The internal HTTP target without its kind (schema 1 has no other). */
export type LegacyTarget = Omit<HttpTarget, "kind">;

/** A schema-1 fault: its type's own keys, without what schema 2 adds (id, dependency, expect, jitter, `auto`). */
export type LegacyFault = { readonly target: LegacyTarget; readonly trigger: OccurrenceTrigger } & (
  | { readonly type: "http_latency"; readonly latencyMs: number }
  | { readonly type: "http_error"; readonly statusCode: number }
  | { readonly type: "http_rate_limit"; readonly retryAfterSeconds: number }
  | { readonly type: "http_malformed_json" | "http_disconnect" }
);

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
