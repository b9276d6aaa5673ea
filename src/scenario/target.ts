import type { LegacyTarget } from "./legacy/types.js";
import type { Target } from "./types.js";

/** A glob where `*` matches any run of characters (`/` included); everything else is literal. */
function globPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, "\\$&"))
      .join(".*")}$`,
    "s",
  );
}

/**
 * An HTTP target as a predicate over (method, path). `*` matches any run of characters, `/`
 * included; everything else is literal and case-sensitive. The method is compared
 * case-insensitively. The query string never takes part (callers pass the path only).
 */
function compileHttpTarget(target: LegacyTarget): (method: string, path: string) => boolean {
  const pattern = globPattern(target.path);
  const method = target.method?.toUpperCase() ?? null;
  return (requestMethod, path) =>
    (method === null || requestMethod.toUpperCase() === method) && pattern.test(path);
}

/**
 * A target as a predicate over an operation's identity, the one rule of the proxies, the MCP
 * shim and the analysis: an HTTP target matches HTTP operations by method and path glob; an MCP
 * target matches MCP operations by exact JSON-RPC method and a glob on the target name
 * (docs/scenario.md, docs/mcp.md).
 */
export function compileTarget(
  target: Target,
): (identity: {
  readonly protocol?: "http" | "mcp";
  readonly method: string;
  readonly path: string;
}) => boolean {
  if (target.kind === "http") {
    const test = compileHttpTarget(target);
    return (identity) => (identity.protocol ?? "http") === "http" && test(identity.method, identity.path);
  }
  const name = target.name === null ? null : globPattern(target.name);
  return (identity) =>
    identity.protocol === "mcp" &&
    (target.method === null || identity.method === target.method) &&
    (name === null || name.test(identity.path));
}
