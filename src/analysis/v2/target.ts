import type { OperationObservedPayloadV2 } from "../../events/types-v2.js";
import { compileTarget } from "../../scenario/target.js";
import type { TargetV2 } from "../../scenario/types-v2.js";

/**
 * Whether an observed operation matches a schema-2 target: an HTTP target (schema 1's rule)
 * matches HTTP operations; an MCP target matches MCP operations by exact JSON-RPC method and a
 * glob on the target name (`*` the only wildcard), each when given.
 */
export function compileTargetV2(
  target: TargetV2,
): (op: Pick<OperationObservedPayloadV2, "protocol" | "method" | "path">) => boolean {
  if (target.kind === "http") {
    const matches = compileTarget(target);
    return (op) => op.protocol === "http" && matches(op.method, op.path);
  }
  const name = target.name === null ? null : compileTarget({ method: null, path: target.name });
  return (op) =>
    op.protocol === "mcp" &&
    (target.method === null || op.method === target.method) &&
    (name === null || name(op.method, op.path));
}
