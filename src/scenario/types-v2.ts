/**
 * A validated schema-2 scenario (docs/scenario.md): plain data, no behaviour. Produced by
 * `loadScenario` for `schema_version: 2`, consumed by the runtime, the proxies, the MCP shim and
 * the schema-2 analyzer.
 */
import type { AuthExpiredProvider, MisbehaveKind, MisbehaveProvider } from "./model-faults.js";
import type { CommandSpec, DependencyStart, Trigger } from "./types.js";

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

export type HttpFaultTypeV2 = ClassicHttpFaultType | LlmHttpFaultType;
export type FaultTypeV2 = HttpFaultTypeV2 | McpFaultType;

export const HTTP_FAULT_TYPES_V2: readonly HttpFaultTypeV2[] = [
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

export const FAULT_TYPES_V2: readonly FaultTypeV2[] = [...HTTP_FAULT_TYPES_V2, ...MCP_FAULT_TYPES];

export type RecoveryMode = "chain" | "fifo";
export type Expectation = "recover" | "handle" | "give_up";

/** An `http` dependency (optionally an MCP server over Streamable HTTP). */
export interface HttpDependencyV2 {
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

export type DependencyV2 = HttpDependencyV2 | McpStdioDependency;

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

export type TargetV2 = HttpTarget | McpTarget;

interface FaultBaseV2 {
  /** `^[a-z0-9][a-z0-9_-]{0,63}$`, default `f<position>`. */
  readonly id: string;
  /** The dependency name (resolved even when the file leaves it out). */
  readonly dependency: string;
  readonly target: TargetV2;
  readonly trigger: TriggerV2;
  readonly expect: Expectation;
}

type Cut =
  | { readonly afterEvents: number; readonly afterBytes: null }
  | { readonly afterEvents: null; readonly afterBytes: number };

export interface LatencyFaultV2 extends FaultBaseV2 {
  readonly type: "http_latency";
  readonly latencyMs: number;
  /** Up to this many ms more, drawn per injection (see faults/jitter.ts); null: none. */
  readonly jitterMs: number | null;
  /** The draws' seed; null: derived from the run id when the run starts. */
  readonly jitterSeed: number | null;
}
export interface HttpErrorFaultV2 extends FaultBaseV2 {
  readonly type: "http_error";
  readonly statusCode: number;
}
export interface RateLimitFaultV2 extends FaultBaseV2 {
  readonly type: "http_rate_limit";
  /** `auto` (under a quota trigger): the seconds until the quota's oldest counted request leaves its window. */
  readonly retryAfterSeconds: number | "auto";
}
export interface MalformedJsonFaultV2 extends FaultBaseV2 {
  readonly type: "http_malformed_json";
}
export interface DisconnectFaultV2 extends FaultBaseV2 {
  readonly type: "http_disconnect";
}
export interface LlmErrorFault extends FaultBaseV2 {
  readonly type: "http_llm_error";
  readonly provider: "openai" | "anthropic";
  readonly statusCode: number;
  readonly retryAfterSeconds: number | null;
  readonly retryAfterMs: number | null;
  readonly shouldRetry: boolean | null;
}
export type StreamTruncateFault = FaultBaseV2 & Cut & { readonly type: "http_stream_truncate" };
export type StreamResetFault = FaultBaseV2 & Cut & { readonly type: "http_stream_reset" };
export type StreamStallFault = FaultBaseV2 &
  Cut & { readonly type: "http_stream_stall"; readonly stallMs: number };
export type StreamErrorEventFault = FaultBaseV2 &
  Cut & { readonly type: "http_stream_error_event"; readonly format: "openai" | "anthropic" };
export interface ResponseLostFault extends FaultBaseV2 {
  readonly type: "http_response_lost";
}
/** Rewrites the upstream model's answer (docs/faults.md, "llm_misbehave"). */
export interface LlmMisbehaveFault extends FaultBaseV2 {
  readonly type: "llm_misbehave";
  readonly provider: MisbehaveProvider;
  readonly kind: MisbehaveKind;
}
/** A 401 saying the bearer token expired (docs/faults.md, "http_auth_expired"). */
export interface AuthExpiredFault extends FaultBaseV2 {
  readonly type: "http_auth_expired";
  readonly provider: AuthExpiredProvider;
}
export interface McpErrorFault extends FaultBaseV2 {
  readonly type: "mcp_error";
  /** Default -32603. */
  readonly code: number;
}
export interface McpToolErrorFault extends FaultBaseV2 {
  readonly type: "mcp_tool_error";
}
export interface McpLatencyFault extends FaultBaseV2 {
  readonly type: "mcp_latency";
  readonly latencyMs: number;
}
export interface McpNoResponseFault extends FaultBaseV2 {
  readonly type: "mcp_no_response";
}
export interface McpDisconnectFault extends FaultBaseV2 {
  readonly type: "mcp_disconnect";
}
export type McpMalformedShape = "not_json" | "wrong_id" | "missing_result";
export interface McpMalformedFault extends FaultBaseV2 {
  readonly type: "mcp_malformed";
  readonly shape: McpMalformedShape;
}
export interface McpOversizedFault extends FaultBaseV2 {
  readonly type: "mcp_oversized";
  /** The size of the padded answer in bytes (default 8 MiB). */
  readonly sizeBytes: number;
}
export interface McpToolsChangedFault extends FaultBaseV2 {
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
export interface HttpCorruptFault extends FaultBaseV2, Omit<CorruptionKeys, "pointer"> {
  readonly type: "http_corrupt";
  /** As `CorruptionKeys.pointer`, or null: the first leaf value of the response (docs/faults.md). */
  readonly pointer: string | null;
}
export interface McpCorruptResultFault extends FaultBaseV2, CorruptionKeys {
  readonly type: "mcp_corrupt_result";
}
export type CorruptionFault = HttpCorruptFault | McpCorruptResultFault;

export type FaultV2 =
  | LatencyFaultV2
  | HttpErrorFaultV2
  | RateLimitFaultV2
  | MalformedJsonFaultV2
  | DisconnectFaultV2
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

export interface WorkloadV2 extends CommandSpec {
  readonly name: string | null;
}

/** The `verify` command (docs/scenario.md): run after a workload that ended by itself. */
export interface VerifySpec {
  /** argv, no shell; runs in the workload's cwd with the workload's environment. */
  readonly command: readonly [string, ...string[]];
  /** 1 to 600, default 10. */
  readonly timeoutSeconds: number;
}

export interface ScenarioV2 {
  readonly schemaVersion: 2;
  readonly name: string;
  /** In scenario order. */
  readonly dependencies: readonly DependencyV2[];
  readonly workload: WorkloadV2;
  /** In list order; empty = a baseline run. */
  readonly faults: readonly FaultV2[];
  readonly recovery: RecoveryMode;
  readonly checks: ChecksConfig;
  readonly success: { readonly exitCode: number };
  readonly timeoutSeconds: number;
  /** The command that checks the world after the workload; absent or null: none. */
  readonly verify?: VerifySpec | null;
  /** Absolute path of the scenario file it was loaded from. */
  readonly sourcePath: string;
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
export type TriggerV2 = Trigger | OutageTrigger | QuotaTrigger;
