import { mcpSessionFaultParameters } from "../../scenario/mcp-session-fault-parameters.js";
import type { Fault, Target } from "../../scenario/types.js";
import type { ReportFaultParametersV4, ReportTargetV4 } from "../types-v4.js";

/** The cut point keys of a mid-stream fault: exactly one of them is set. */
function cut(fault: { readonly afterEvents: number | null; readonly afterBytes: number | null }) {
  return fault.afterEvents !== null
    ? { after_events: fault.afterEvents }
    : { after_bytes: fault.afterBytes ?? 0 };
}

/** The optional keys that were set (a key left out of the scenario is left out here too). */
function present(entries: Record<string, number | string | boolean | null>): ReportFaultParametersV4 {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== null),
  ) as ReportFaultParametersV4;
}

/**
 * Every own key of a fault (docs/faults.md, docs/mcp.md), named and ordered as the scenario file
 * writes them; defaults included (`mcp_error` `code`), optional keys only when set.
 */
export function faultParameters(fault: Fault): ReportFaultParametersV4 {
  switch (fault.type) {
    case "http_latency":
      return present({
        latency_ms: fault.latencyMs,
        jitter_ms: fault.jitterMs,
        jitter_seed: fault.jitterSeed,
      });
    case "mcp_latency":
      return { latency_ms: fault.latencyMs };
    case "http_error":
      return { status_code: fault.statusCode };
    case "http_rate_limit":
      return { retry_after_seconds: fault.retryAfterSeconds };
    case "http_llm_error":
      return present({
        provider: fault.provider,
        status_code: fault.statusCode,
        retry_after_seconds: fault.retryAfterSeconds,
        retry_after_ms: fault.retryAfterMs,
        should_retry: fault.shouldRetry,
      });
    case "http_stream_truncate":
    case "http_stream_reset":
      return cut(fault);
    case "http_stream_stall":
      return { ...cut(fault), stall_ms: fault.stallMs };
    case "http_stream_error_event":
      return { ...cut(fault), format: fault.format };
    case "mcp_error":
      return { code: fault.code };
    case "llm_misbehave":
      return { provider: fault.provider, kind: fault.kind };
    case "http_auth_expired":
      return { provider: fault.provider };
    case "mcp_malformed":
    case "mcp_oversized":
    case "mcp_tools_changed":
      return mcpSessionFaultParameters(fault);
    case "http_corrupt":
    case "mcp_corrupt_result":
      // Sinks as one comma-separated string: every parameter value is a scalar.
      // No pointer (http_corrupt): the first leaf value; the FAULT_INJECTED event names it.
      return {
        ...(fault.pointer === null ? {} : { pointer: fault.pointer }),
        sinks: fault.sinks.join(","),
      };
    case "http_malformed_json":
    case "http_disconnect":
    case "http_response_lost":
    case "mcp_tool_error":
    case "mcp_no_response":
    case "mcp_disconnect":
      return {};
  }
}

export function reportTarget(target: Target): ReportTargetV4 {
  return target.kind === "http"
    ? { method: target.method, path: target.path }
    : { method: target.method, name: target.name };
}
