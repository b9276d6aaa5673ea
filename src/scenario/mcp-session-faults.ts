/**
 * The keys and checks of the MCP session faults `mcp_malformed`, `mcp_oversized` and
 * `mcp_tools_changed` (docs/mcp.md).
 */
import * as z from "zod";
import { BODY_LIMIT, STDIO_MESSAGE_LIMIT } from "../support/body-limit.js";
import { expecting, integer, nonEmptyString } from "./fields.js";
import type { Dependency, FaultType } from "./types.js";

/** `mcp_oversized`'s default `size_bytes`: 8 MiB. */
export const DEFAULT_OVERSIZED_BYTES = 8 * 1024 * 1024;

/** Each session fault's own keys. */
export const MCP_SESSION_FAULT_KEYS = {
  mcp_malformed: {
    shape: z.enum(["not_json", "wrong_id", "missing_result"], {
      error: expecting('"not_json", "wrong_id" or "missing_result"'),
    }),
  },
  mcp_oversized: {
    size_bytes: integer(
      `an integer from 1 to ${STDIO_MESSAGE_LIMIT} (64 MiB)`,
      1n,
      BigInt(STDIO_MESSAGE_LIMIT),
    ).optional(),
  },
  mcp_tools_changed: {
    remove: z.array(nonEmptyString("a tool name"), { error: expecting("a list of tool names") }).optional(),
    require: nonEmptyString("a property name").optional(),
  },
} satisfies Record<"mcp_malformed" | "mcp_oversized" | "mcp_tools_changed", z.ZodRawShape>;

/**
 * The checks of `mcp_oversized` and `mcp_tools_changed` that depend on the dependency and the
 * target (docs/mcp.md): over HTTP the padded answer must fit the proxy's body limit; `require`
 * needs a targeted request that names a tool.
 */
export function mcpSessionFaultProblems(
  type: FaultType,
  raw: Record<string, unknown>,
  dependency: Dependency,
): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const size = raw.size_bytes;
  if (
    type === "mcp_oversized" &&
    dependency.type === "http" &&
    typeof size === "bigint" &&
    size > BODY_LIMIT
  ) {
    problems.push({
      path: ["size_bytes"],
      message: `expected at most ${BODY_LIMIT} (the proxy's 10 MiB body limit) for the http dependency "${dependency.name}", got ${size}`,
    });
  }
  const target = raw.target as Record<string, unknown> | undefined;
  if (
    type === "mcp_tools_changed" &&
    raw.require !== undefined &&
    target !== null &&
    typeof target === "object"
  ) {
    if (target.method !== "tools/call") {
      problems.push({
        path: ["target", "method"],
        message: 'expected "tools/call" (require adds a property to the targeted tool\'s inputSchema)',
      });
    }
  }
  return problems;
}
