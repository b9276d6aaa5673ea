import * as z from "zod";
import {
  CORRUPTION_TYPES,
  corruptionIssues,
  corruptionKeys,
  httpCorruptKeys,
  STDOUT_SINK,
} from "./corruption.js";
import {
  describe,
  expecting,
  httpTargetSchema,
  integer,
  mapping,
  matching,
  nonEmptyString,
  positiveInteger,
} from "./fields.js";
import { retryAfterAutoProblem, retryAfterSecondsOrAuto } from "./lasting-trigger-schema.js";
import {
  DEFAULT_OVERSIZED_BYTES,
  MCP_SESSION_FAULT_KEYS,
  mcpSessionFaultProblems,
} from "./mcp-session-faults.js";
import { AUTH_EXPIRED_PROVIDERS, MISBEHAVE_KINDS, MISBEHAVE_PROVIDERS, quotedList } from "./model-faults.js";
import { triggerSchema, type WrittenNumberAt } from "./trigger-schema.js";
import {
  type Dependency,
  FAULT_TYPES,
  type Fault,
  type FaultType,
  type HttpTarget,
  MCP_FAULT_TYPES,
  type McpTarget,
} from "./types.js";

export const MAX_FAULTS = 32;
const FAULT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const NON_NEGATIVE = "an integer of at least 0";

const httpTarget = httpTargetSchema("an HTTP target").transform(
  (target): HttpTarget => ({ kind: "http", ...target }),
);

const mcpTarget = mapping(
  { method: nonEmptyString().optional(), name: nonEmptyString().optional() },
  "an MCP target",
)
  .superRefine(
    (target, ctx) => {
      const raw = target as Record<string, unknown>;
      if (raw.method === undefined && raw.name === undefined) {
        ctx.addIssue({
          code: "custom",
          input: target,
          message: "expected at least one of method and name (an MCP target)",
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform(
    (target): McpTarget => ({ kind: "mcp", method: target.method ?? null, name: target.name ?? null }),
  );

const cutKeys = {
  after_events: integer(NON_NEGATIVE, 0n).optional(),
  after_bytes: integer(NON_NEGATIVE, 0n).optional(),
};

/** Each fault type's own keys (docs/faults.md, docs/mcp.md; schema-1 types keep theirs). */
const OWN_KEYS = {
  http_latency: {
    latency_ms: positiveInteger,
    jitter_ms: integer(NON_NEGATIVE, 0n).optional(),
    jitter_seed: integer(NON_NEGATIVE, 0n).optional(),
  },
  http_error: { status_code: integer("an integer from 400 to 599", 400n, 599n) },
  http_rate_limit: { retry_after_seconds: retryAfterSecondsOrAuto },
  http_malformed_json: {},
  http_disconnect: {},
  http_llm_error: {
    provider: z.enum(["openai", "anthropic"], { error: expecting('"openai" or "anthropic"') }),
    status_code: integer("an integer from 400 to 599", 400n, 599n),
    retry_after_seconds: integer(NON_NEGATIVE, 0n).optional(),
    retry_after_ms: integer(NON_NEGATIVE, 0n).optional(),
    should_retry: z.boolean({ error: expecting("a boolean") }).optional(),
  },
  http_stream_truncate: cutKeys,
  http_stream_reset: cutKeys,
  http_stream_stall: { ...cutKeys, stall_ms: positiveInteger },
  http_stream_error_event: {
    ...cutKeys,
    format: z.enum(["openai", "anthropic"], { error: expecting('"openai" or "anthropic"') }),
  },
  http_response_lost: {},
  llm_misbehave: {
    provider: z.enum(MISBEHAVE_PROVIDERS, { error: expecting(quotedList(MISBEHAVE_PROVIDERS)) }),
    kind: z.enum(MISBEHAVE_KINDS, { error: expecting(quotedList(MISBEHAVE_KINDS)) }),
  },
  http_auth_expired: {
    provider: z
      .enum(AUTH_EXPIRED_PROVIDERS, { error: expecting(quotedList(AUTH_EXPIRED_PROVIDERS)) })
      .optional(),
  },
  mcp_error: {
    code: integer("an integer", -BigInt(Number.MAX_SAFE_INTEGER)).optional(),
  },
  mcp_tool_error: {},
  mcp_latency: { latency_ms: positiveInteger },
  mcp_no_response: {},
  mcp_disconnect: {},
  ...MCP_SESSION_FAULT_KEYS,
  http_corrupt: httpCorruptKeys,
  mcp_corrupt_result: corruptionKeys,
} satisfies Record<FaultType, z.ZodRawShape>;

const STREAM_TYPES = new Set<string>([
  "http_stream_truncate",
  "http_stream_reset",
  "http_stream_stall",
  "http_stream_error_event",
]);

/** Whether a dependency speaks MCP (stdio, or Streamable HTTP with `protocol: mcp`). */
export function speaksMcp(dependency: Dependency): boolean {
  return dependency.type === "mcp_stdio" || dependency.protocol === "mcp";
}

function fitProblem(type: string, dependency: Dependency): string | null {
  const mcpFault = (MCP_FAULT_TYPES as readonly string[]).includes(type);
  if (mcpFault && !speaksMcp(dependency)) {
    return `expected a fault type that fits the http dependency "${dependency.name}": ${type} needs an mcp_stdio dependency or an http dependency with protocol: mcp`;
  }
  if (!mcpFault && dependency.type === "mcp_stdio") {
    return `expected an mcp_* fault type for the mcp_stdio dependency "${dependency.name}", got ${type}`;
  }
  return null;
}

/** One issue, positioned relative to the faults list. */
export interface FaultIssue {
  readonly path: PropertyKey[];
  readonly message: string;
  readonly code: "custom" | "unrecognized_keys";
  readonly keys?: string[];
}

function ownKeysOf(type: FaultType) {
  return OWN_KEYS[type] as z.ZodRawShape;
}

function toFault(raw: Record<string, unknown>, id: string, dependency: string): Fault {
  const base = {
    id,
    dependency,
    target: raw.target,
    trigger: raw.trigger,
    expect:
      (raw.expect as string | undefined) ?? (CORRUPTION_TYPES.has(String(raw.type)) ? "handle" : "recover"),
  };
  const cut = {
    afterEvents: (raw.after_events as number | undefined) ?? null,
    afterBytes: (raw.after_bytes as number | undefined) ?? null,
  };
  const type = raw.type as FaultType;
  const own: Record<string, unknown> = (() => {
    switch (type) {
      case "http_latency":
        return {
          latencyMs: raw.latency_ms,
          jitterMs: raw.jitter_ms ?? null,
          jitterSeed: raw.jitter_seed ?? null,
        };
      case "mcp_latency":
        return { latencyMs: raw.latency_ms };
      case "http_error":
        return { statusCode: raw.status_code };
      case "http_rate_limit":
        return { retryAfterSeconds: raw.retry_after_seconds };
      case "http_llm_error":
        return {
          provider: raw.provider,
          statusCode: raw.status_code,
          retryAfterSeconds: raw.retry_after_seconds ?? null,
          retryAfterMs: raw.retry_after_ms ?? null,
          shouldRetry: raw.should_retry ?? null,
        };
      case "http_stream_truncate":
      case "http_stream_reset":
        return cut;
      case "http_stream_stall":
        return { ...cut, stallMs: raw.stall_ms };
      case "http_stream_error_event":
        return { ...cut, format: raw.format };
      case "mcp_error":
        return { code: raw.code ?? -32603 };
      case "llm_misbehave":
        return { provider: raw.provider, kind: raw.kind };
      case "http_auth_expired":
        return { provider: raw.provider ?? "generic" };
      case "mcp_malformed":
        return { shape: raw.shape };
      case "mcp_oversized":
        return { sizeBytes: raw.size_bytes ?? DEFAULT_OVERSIZED_BYTES };
      case "mcp_tools_changed":
        return { remove: raw.remove ?? [], require: raw.require ?? null };
      case "http_corrupt":
      case "mcp_corrupt_result":
        return {
          pointer: raw.pointer ?? null,
          sinks: [...new Set((raw.sinks as string[] | undefined) ?? [STDOUT_SINK])],
        };
      default:
        return {};
    }
  })();
  return { type, ...base, ...own } as Fault;
}

/**
 * Validates the `faults` list against the scenario's dependencies. Returns the faults (ids
 * defaulted, dependency resolved) or the issues, each positioned below `faults`.
 */
export function validateFaults(
  value: unknown,
  dependencies: readonly Dependency[] | null,
  writtenNumberAt: WrittenNumberAt,
): { faults: Fault[]; issues: FaultIssue[] } {
  const issues: FaultIssue[] = [];
  const faults: Fault[] = [];
  if (value === undefined || value === null) return { faults, issues };
  if (!Array.isArray(value)) {
    issues.push({
      code: "custom",
      path: [],
      message: `expected a list of faults or null, got ${describe(value)}`,
    });
    return { faults, issues };
  }
  if (value.length > MAX_FAULTS) {
    issues.push({
      code: "custom",
      path: [],
      message: `expected at most ${MAX_FAULTS} faults, got ${value.length}`,
    });
  }
  const names = dependencies?.map((dependency) => dependency.name) ?? [];
  const seenIds = new Map<string, number>();
  value.forEach((item: unknown, index) => {
    const at = (path: PropertyKey[], message: string): void => {
      issues.push({ code: "custom", path: [index, ...path], message });
    };
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      at([], `expected a fault mapping, got ${describe(item)}`);
      return;
    }
    const raw = item as Record<string, unknown>;
    const type = raw.type;
    if (typeof type !== "string" || !(FAULT_TYPES as readonly string[]).includes(type)) {
      const found = type === undefined ? "missing; " : "";
      const got =
        type === undefined ? "" : `, got ${typeof type === "string" ? JSON.stringify(type) : describe(type)}`;
      at(["type"], `${found}expected one of ${FAULT_TYPES.join(", ")}${got}`);
      return;
    }
    const faultType = type as FaultType;

    // Which dependency the fault acts on.
    let dependency: Dependency | undefined;
    if (raw.dependency === undefined) {
      if (dependencies !== null && dependencies.length === 1) dependency = dependencies[0];
      else if (dependencies !== null)
        at(
          [],
          "missing key dependency; expected the name of the dependency this fault acts on (required with two or more dependencies)",
        );
    } else if (typeof raw.dependency !== "string" || !names.includes(raw.dependency)) {
      if (dependencies !== null) {
        const got =
          typeof raw.dependency === "string" ? JSON.stringify(raw.dependency) : describe(raw.dependency);
        at(["dependency"], `expected the name of a dependency (${names.join(", ")}), got ${got}`);
      }
    } else {
      dependency = dependencies?.find((candidate) => candidate.name === raw.dependency);
    }
    if (dependency !== undefined) {
      const misfit = fitProblem(faultType, dependency);
      if (misfit !== null) at(["type"], misfit);
    }

    const mcp = dependency !== undefined && speaksMcp(dependency);
    const probabilityPath = ["faults", index, "trigger", "probability"];
    const shape = mapping(
      {
        type: z.literal(faultType),
        id: matching(FAULT_ID, "an id matching ^[a-z0-9][a-z0-9_-]{0,63}$").optional(),
        dependency: z.string().optional(),
        target: mcp ? mcpTarget : httpTarget,
        trigger: triggerSchema(writtenNumberAt, probabilityPath),
        expect: z
          .enum(["recover", "handle", "give_up"], { error: expecting('"recover", "handle" or "give_up"') })
          .optional(),
        ...ownKeysOf(faultType),
      },
      `an ${faultType} fault`,
    );
    const parsed = shape.safeParse(raw);
    for (const issue of parsed.error?.issues ?? []) {
      const { code, path, message } = issue;
      if (code === "unrecognized_keys")
        issues.push({ code, path: [index, ...path], keys: issue.keys, message });
      else at(path, message);
    }
    const data = (parsed.success ? parsed.data : raw) as Record<string, unknown>;
    if (STREAM_TYPES.has(faultType) && (raw.after_events === undefined) === (raw.after_bytes === undefined)) {
      at([], "expected exactly one of after_events and after_bytes");
    }
    if (faultType === "mcp_tool_error" && mcp) {
      const target = raw.target as Record<string, unknown> | undefined;
      if (target !== null && typeof target === "object" && target.method !== "tools/call") {
        at(["target", "method"], 'expected "tools/call" (mcp_tool_error answers tool calls only)');
      }
    }
    const autoProblem = retryAfterAutoProblem(faultType, raw);
    if (autoProblem !== null) at(["retry_after_seconds"], autoProblem);
    if (mcp && dependency !== undefined) {
      for (const problem of mcpSessionFaultProblems(faultType, raw, dependency))
        at(problem.path, problem.message);
    }
    if (CORRUPTION_TYPES.has(faultType) && dependencies !== null) {
      for (const issue of corruptionIssues(raw, names)) at(issue.path, issue.message);
    }
    const id = typeof raw.id === "string" && FAULT_ID.test(raw.id) ? raw.id : `f${index + 1}`;
    const earlier = seenIds.get(id);
    if (earlier !== undefined) {
      at(
        raw.id === undefined ? [] : ["id"],
        `expected a unique fault id; "${id}" is also the id of faults[${earlier}]`,
      );
    } else {
      seenIds.set(id, index);
    }
    if (parsed.success && dependency !== undefined) faults.push(toFault(data, id, dependency.name));
  });
  return { faults, issues };
}
