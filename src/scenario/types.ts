/**
 * A validated schema-2 scenario (docs/scenario.md): plain data, no behaviour. Produced by
 * `loadScenario` for `schema_version: 2`, consumed by the runtime, the proxies, the MCP shim and
 * the schema-2 analyzer.
 */
import type { AuthExpiredProvider, MisbehaveKind, MisbehaveProvider } from "./model-faults.js";
/** The five schema-1 HTTP faults, which keep their keys and bytes in schema 2. */
export type ClassicHttpFaultType =
  | "http_latency"
  | "http_error"
  | "http_rate_limit"
  | "http_malformed_json"
  | "http_disconnect";

/** The HTTP faults schema 2 adds (docs/faults.md). */
export type LlmHttpFaultType =
  | "http_llm_error"
  | "http_stream_truncate"
  | "http_stream_reset"
  | "http_stream_stall"
  | "http_stream_error_event"
  | "http_response_lost"
  | "llm_misbehave"
  | "http_auth_expired"
  | "http_corrupt";

/** JSON-RPC level faults (docs/mcp.md). */
export type McpFaultType =
  | "mcp_error"
  | "mcp_tool_error"
  | "mcp_latency"
  | "mcp_no_response"
  | "mcp_disconnect"
  | "mcp_malformed"
  | "mcp_oversized"
  | "mcp_tools_changed"
  | "mcp_corrupt_result";

export type HttpFaultType = ClassicHttpFaultType | LlmHttpFaultType;
export type FaultType = HttpFaultType | McpFaultType;

export const HTTP_FAULT_TYPES: readonly HttpFaultType[] = [
  "http_latency",
  "http_error",
  "http_rate_limit",
  "http_malformed_json",
  "http_disconnect",
  "http_llm_error",
  "http_stream_truncate",
  "http_stream_reset",
  "http_stream_stall",
  "http_stream_error_event",
  "http_response_lost",
  "llm_misbehave",
  "http_auth_expired",
  "http_corrupt",
];

export const MCP_FAULT_TYPES: readonly McpFaultType[] = [
  "mcp_error",
  "mcp_tool_error",
  "mcp_latency",
  "mcp_no_response",
  "mcp_disconnect",
  "mcp_malformed",
  "mcp_oversized",
  "mcp_tools_changed",
  "mcp_corrupt_result",
];

export const FAULT_TYPES: readonly FaultType[] = [...HTTP_FAULT_TYPES, ...MCP_FAULT_TYPES];

export type RecoveryMode = "chain" | "fifo";
export type Expectation = "recover" | "handle" | "give_up";

/** An `http` dependency (optionally an MCP server over Streamable HTTP). */
export interface HttpDependency {
  readonly name: string;
  readonly type: "http";
  /** As written (may hold `{port}` and user info; never print it, use `safeUrl` on the resolved form). */
  readonly baseUrl: string;
  /** `{port}` stays as written here; the runtime substitutes it per run. */
  readonly start: DependencyStart | null;
  /** Extra variable that receives this dependency's proxy URL. */
  readonly urlEnv: string | null;
  readonly protocol: "http" | "mcp";
  /** JSON Pointers removed from JSON bodies before fingerprinting; empty = none. */
  readonly ignoreJsonFields: readonly string[];
  /** Whether `base_url` holds `{port}`. */
  readonly usesPortPlaceholder: boolean;
  /** Served from (or recorded into) a cassette (docs/replay.md); absent: always live. */
  readonly replay?: ReplayConfig;
  /**
   * Whether the proxy counts the events of a relayed event stream, so that a workload closing it
   * after whole events succeeded (`closed_by_client`); absent: true. The schema-1 upgrade sets
   * false: there a workload leaving a stream failed (`client_disconnected`).
   */
  readonly countStreamEvents?: boolean;
}

/** An MCP server the workload spawns through the shim (docs/mcp.md). */
export interface McpStdioDependency extends CommandSpec {
  readonly name: string;
  readonly type: "mcp_stdio";
  /** Served from (or recorded into) a cassette (docs/replay.md); absent: always live. */
  readonly replay?: ReplayConfig;
}

/** What a request's replay key is made of (docs/replay.md). */
export type ReplayMatchField = "method" | "path" | "body" | "query";

/** A dependency's `replay` mapping, defaults applied. */
export interface ReplayConfig {
  /** Absolute path of the cassette file. */
  readonly cassette: string;
  /** As written in the scenario (relative to its folder, or absolute). */
  readonly cassetteAsWritten: string;
  readonly match: readonly ReplayMatchField[];
  readonly onMismatch: "fail" | "live";
  readonly timing: "recorded" | "immediate";
  /** JSON Pointers whose values are stored as "[redacted]" in JSON responses. */
  readonly redact: readonly string[];
}

export type Dependency = HttpDependency | McpStdioDependency;

/** An HTTP request target (schema 1's target). */
export interface HttpTarget {
  readonly kind: "http";
  /** Upper case, or null for every method. */
  readonly method: string | null;
  readonly path: string;
}

/** A JSON-RPC target: at least one of the two is non-null. */
export interface McpTarget {
  readonly kind: "mcp";
  /** Exact, case-sensitive JSON-RPC method, or null for any. */
  readonly method: string | null;
  /** Glob on the target name (`*` the only wildcard), or null for any. */
  readonly name: string | null;
}

export type Target = HttpTarget | McpTarget;

interface FaultBase {
  /** `^[a-z0-9][a-z0-9_-]{0,63}$`, default `f<position>`. */
  readonly id: string;
  /** The dependency name (resolved even when the file leaves it out). */
  readonly dependency: string;
  readonly target: Target;
  readonly trigger: Trigger;
  readonly expect: Expectation;
}

type Cut =
  | { readonly afterEvents: number; readonly afterBytes: null }
  | { readonly afterEvents: null; readonly afterBytes: number };

export interface LatencyFault extends FaultBase {
  readonly type: "http_latency";
  readonly latencyMs: number;
  /** Up to this many ms more, drawn per injection (see faults/jitter.ts); null: none. */
  readonly jitterMs: number | null;
  /** The draws' seed; null: derived from the run id when the run starts. */
  readonly jitterSeed: number | null;
}
export interface HttpErrorFault extends FaultBase {
  readonly type: "http_error";
  readonly statusCode: number;
}
export interface RateLimitFault extends FaultBase {
  readonly type: "http_rate_limit";
  /** `auto` (under a quota trigger): the seconds until the quota's oldest counted request leaves its window. */
  readonly retryAfterSeconds: number | "auto";
}
export interface MalformedJsonFault extends FaultBase {
  readonly type: "http_malformed_json";
}
export interface DisconnectFault extends FaultBase {
  readonly type: "http_disconnect";
}
export interface LlmErrorFault extends FaultBase {
  readonly type: "http_llm_error";
  readonly provider: "openai" | "anthropic";
  readonly statusCode: number;
  readonly retryAfterSeconds: number | null;
  readonly retryAfterMs: number | null;
  readonly shouldRetry: boolean | null;
}
export type StreamTruncateFault = FaultBase & Cut & { readonly type: "http_stream_truncate" };
export type StreamResetFault = FaultBase & Cut & { readonly type: "http_stream_reset" };
export type StreamStallFault = FaultBase &
  Cut & { readonly type: "http_stream_stall"; readonly stallMs: number };
export type StreamErrorEventFault = FaultBase &
  Cut & { readonly type: "http_stream_error_event"; readonly format: "openai" | "anthropic" };
export interface ResponseLostFault extends FaultBase {
  readonly type: "http_response_lost";
}
/** Rewrites the upstream model's answer (docs/faults.md, "llm_misbehave"). */
export interface LlmMisbehaveFault extends FaultBase {
  readonly type: "llm_misbehave";
  readonly provider: MisbehaveProvider;
  readonly kind: MisbehaveKind;
}
/** A 401 saying the bearer token expired (docs/faults.md, "http_auth_expired"). */
export interface AuthExpiredFault extends FaultBase {
  readonly type: "http_auth_expired";
  readonly provider: AuthExpiredProvider;
}
export interface McpErrorFault extends FaultBase {
  readonly type: "mcp_error";
  /** Default -32603. */
  readonly code: number;
}
export interface McpToolErrorFault extends FaultBase {
  readonly type: "mcp_tool_error";
}
export interface McpLatencyFault extends FaultBase {
  readonly type: "mcp_latency";
  readonly latencyMs: number;
}
export interface McpNoResponseFault extends FaultBase {
  readonly type: "mcp_no_response";
}
export interface McpDisconnectFault extends FaultBase {
  readonly type: "mcp_disconnect";
}
export type McpMalformedShape = "not_json" | "wrong_id" | "missing_result";
export interface McpMalformedFault extends FaultBase {
  readonly type: "mcp_malformed";
  readonly shape: McpMalformedShape;
}
export interface McpOversizedFault extends FaultBase {
  readonly type: "mcp_oversized";
  /** The size of the padded answer in bytes (default 8 MiB). */
  readonly sizeBytes: number;
}
export interface McpToolsChangedFault extends FaultBase {
  readonly type: "mcp_tools_changed";
  /** Tool names `tools/list` omits from then on (calls to them: -32602). */
  readonly remove: readonly string[];
  /** The property the targeted tool's `inputSchema` gains as required, or null. */
  readonly require: string | null;
}

/** The keys both corruption faults share (docs/faults.md, corruption faults). */
interface CorruptionKeys {
  /** RFC 6901 JSON pointer, validated; http: into the body (or an event's data), mcp: into the JSON-RPC result. */
  readonly pointer: string;
  /** `stdout` and dependency names, default [stdout]. */
  readonly sinks: readonly string[];
}
export interface HttpCorruptFault extends FaultBase, Omit<CorruptionKeys, "pointer"> {
  readonly type: "http_corrupt";
  /** As `CorruptionKeys.pointer`, or null: the first leaf value of the response (docs/faults.md). */
  readonly pointer: string | null;
}
export interface McpCorruptResultFault extends FaultBase, CorruptionKeys {
  readonly type: "mcp_corrupt_result";
}
export type CorruptionFault = HttpCorruptFault | McpCorruptResultFault;

export type Fault =
  | LatencyFault
  | HttpErrorFault
  | RateLimitFault
  | MalformedJsonFault
  | DisconnectFault
  | LlmErrorFault
  | StreamTruncateFault
  | StreamResetFault
  | StreamStallFault
  | StreamErrorEventFault
  | ResponseLostFault
  | LlmMisbehaveFault
  | AuthExpiredFault
  | McpErrorFault
  | McpToolErrorFault
  | McpLatencyFault
  | McpNoResponseFault
  | McpDisconnectFault
  | McpMalformedFault
  | McpOversizedFault
  | McpToolsChangedFault
  | HttpCorruptFault
  | McpCorruptResultFault;

export type CheckName = "retry_after" | "retry_storm" | "duplicate_writes" | "fail_fast" | "cancellation";
export type CheckMode = "off" | "report" | "enforce";

/** Which dependencies a check looks at: `null` for every one. */
export interface CheckScope {
  readonly mode: CheckMode;
  readonly dependencies: readonly string[] | null;
}

/** A method `duplicate_writes` may look at: those that can change something by their contract. */
export type WriteMethod = "POST" | "PUT" | "PATCH" | "DELETE";

export interface ChecksConfig {
  readonly retry_after: CheckScope;
  readonly retry_storm: CheckScope & { readonly maxAttempts: number; readonly minGapMs: number };
  readonly duplicate_writes: CheckScope & {
    /** Default POST and PATCH. */
    readonly methods: readonly WriteMethod[];
    /** Path globs (`*` matches within and across segments); null: every path but model calls. */
    readonly paths: readonly string[] | null;
  };
  /** Off unless listed (docs/checks.md); every dependency. */
  readonly fail_fast: { readonly mode: CheckMode; readonly maxMs: number };
  /** Off unless listed; MCP operations only. */
  readonly cancellation: { readonly mode: CheckMode };
}

export interface Workload extends CommandSpec {
  readonly name: string | null;
}

/** The `verify` command (docs/scenario.md): run after a workload that ended by itself. */
export interface VerifySpec {
  /** argv, no shell; runs in the workload's cwd with the workload's environment. */
  readonly command: readonly [string, ...string[]];
  /** 1 to 600, default 10. */
  readonly timeoutSeconds: number;
}

export interface Scenario {
  readonly schemaVersion: 2;
  readonly name: string;
  /** In scenario order. */
  readonly dependencies: readonly Dependency[];
  readonly workload: Workload;
  /** In list order; empty = a baseline run. */
  readonly faults: readonly Fault[];
  readonly recovery: RecoveryMode;
  readonly checks: ChecksConfig;
  readonly success: { readonly exitCode: number };
  readonly timeoutSeconds: number;
  /** The command that checks the world after the workload; absent or null: none. */
  readonly verify?: VerifySpec | null;
  /** Absolute path of the scenario file it was loaded from. */
  readonly sourcePath: string;
  /** The file's text, for a scenario given in memory rather than read from `sourcePath`. */
  readonly sourceText?: string;
  /**
   * How a run names its dependencies in variables, log files and messages; absent: `named`.
   * `unnamed`: a schema-1 file's one dependency (docs/scenario.md, one internal model).
   */
  readonly dependencyNaming?: "named" | "unnamed";
}

/** An outage (docs/triggers.md): every targeted request observed in `[startMs, startMs + durationMs)` after the workload started. */
export interface OutageTrigger {
  readonly kind: "outage";
  readonly startMs: number;
  readonly durationMs: number;
}

/** A sliding-window quota (docs/triggers.md): selected while `limit` requests or tokens were let through in the last `perMs`. */
export interface QuotaTrigger {
  readonly kind: "quota";
  readonly unit: "requests" | "tokens";
  readonly limit: number;
  readonly perMs: number;
}

/** The triggers of a schema-2 fault: schema 1's, an outage or a quota. */
export type Trigger = OccurrenceTrigger | OutageTrigger | QuotaTrigger;
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
export type OccurrenceTrigger = OccurrenceScheduleTrigger | SeededProbabilityTrigger;
