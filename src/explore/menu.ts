/**
 * The menu (docs/explore.md, step 3): the faults to try at each injection point. An entry is a fault
 * body (type, its own keys, optional `expect`); explore adds dependency, target and trigger per
 * point. The default menu depends on the point; a menu file's entries apply wherever their type
 * fits. Pure.
 */
import type { NotAppliedReason } from "../events/types.js";
import { faultParameters } from "../report/v4/fault-parameters.js";
import type { Dependency, Fault, McpTarget } from "../scenario/types.js";
import type { ObservedPoint } from "./points.js";

/** Where a default-menu entry applies (a menu file's entries use `fits` only). */
export type MenuScope = "any" | "http_points" | "event_streams" | "writes" | "mcp_points";

export interface MenuEntry {
  /** `M1`, `M2`, ... in menu order. */
  readonly id: string;
  /** The type and its keys, e.g. `http_error status_code=503`: the matrix's column heading. */
  readonly label: string;
  /** The body as a validated fault; its id, dependency, target and trigger are placeholders. */
  readonly fault: Fault;
  readonly scope: MenuScope;
  /** Extended-menu entries (extended-menu.ts): a further condition on the point. */
  readonly fitsPoint?: (point: ObservedPoint) => boolean;
  /** Extended-menu entries: the fault as placed at the point (its target, trigger or sinks). */
  readonly atPoint?: (fault: Fault, point: ObservedPoint) => Fault;
  /**
   * Extended-menu entries: FAULT_NOT_APPLIED reasons that show the fault has nothing to act on at
   * the point (a response without a JSON leaf, a model answer without a tool call); a run whose
   * fault was not applied for only these reasons is not an experiment (extended-menu.ts).
   */
  readonly unfitWhen?: readonly NotAppliedReason[];
}

/** The body as a menu file writes it: type, own keys, and `expect` unless it is `recover`. */
export function menuBody(fault: Fault): Record<string, unknown> {
  return {
    type: fault.type,
    ...faultParameters(fault),
    ...(fault.expect === "recover" ? {} : { expect: fault.expect }),
  };
}

export function menuLabel(fault: Fault): string {
  const parts: string[] = [fault.type];
  for (const [key, value] of Object.entries(faultParameters(fault))) parts.push(`${key}=${String(value)}`);
  if (fault.expect !== "recover") parts.push(`expect=${fault.expect}`);
  return parts.join(" ");
}

const CLASSIC_HTTP = new Set([
  "http_latency",
  "http_error",
  "http_rate_limit",
  "http_malformed_json",
  "http_disconnect",
]);

/** Whether the fault's type can act on the point (docs/scenario.md pairings, docs/faults.md cut points). */
export function typeFits(fault: Fault, point: ObservedPoint, dependency: Dependency): boolean {
  if (fault.type.startsWith("mcp_")) {
    if (point.protocol !== "mcp") return false;
    return fault.type !== "mcp_tool_error" || point.method === "tools/call";
  }
  if (dependency.type !== "http") return false;
  if (point.protocol === "mcp") return CLASSIC_HTTP.has(fault.type);
  if ("afterEvents" in fault && fault.afterEvents !== null) {
    return point.relayedEvents !== null && point.relayedEvents >= fault.afterEvents;
  }
  return true;
}

function inScope(scope: MenuScope, point: ObservedPoint): boolean {
  switch (scope) {
    case "any":
      return true;
    case "http_points":
      return point.protocol === "http";
    case "event_streams":
      return point.protocol === "http" && point.relayedEvents !== null;
    case "writes":
      return point.protocol === "http" && (point.method === "POST" || point.method === "PATCH");
    case "mcp_points":
      return point.protocol === "mcp";
  }
}

/** Whether a menu entry applies to a point of the given dependency. */
export function applies(entry: MenuEntry, point: ObservedPoint, dependency: Dependency): boolean {
  return (
    inScope(entry.scope, point) &&
    typeFits(entry.fault, point, dependency) &&
    (entry.fitsPoint?.(point) ?? true)
  );
}

export const PLACEHOLDER = {
  id: "menu",
  dependency: "",
  trigger: { kind: "occurrence_schedule", occurrences: [1] },
  expect: "recover",
} as const;
export const HTTP_TARGET = { kind: "http", method: null, path: "/" } as const;
export const MCP_TARGET: McpTarget = { kind: "mcp", method: null, name: "*" };
const CUT = { afterEvents: 1, afterBytes: null } as const;

/** The default menu (docs/explore.md, step 3), in column order. */
export function defaultMenu(): MenuEntry[] {
  const http = { ...PLACEHOLDER, target: HTTP_TARGET };
  const mcp = { ...PLACEHOLDER, target: MCP_TARGET };
  const bodies: [Fault, MenuScope][] = [
    [{ ...http, type: "http_error", statusCode: 503 }, "http_points"],
    [{ ...http, type: "http_rate_limit", retryAfterSeconds: 1 }, "http_points"],
    [{ ...http, type: "http_disconnect" }, "http_points"],
    [{ ...http, ...CUT, type: "http_stream_truncate" }, "event_streams"],
    [{ ...http, ...CUT, type: "http_stream_reset" }, "event_streams"],
    [{ ...http, type: "http_response_lost" }, "writes"],
    [{ ...mcp, type: "mcp_error", code: -32603 }, "mcp_points"],
    [{ ...mcp, type: "mcp_disconnect" }, "mcp_points"],
    [
      { ...mcp, target: { kind: "mcp", method: "tools/call", name: "*" }, type: "mcp_tool_error" },
      "mcp_points",
    ],
  ];
  return bodies.map(([fault, scope], index) => ({
    id: `M${index + 1}`,
    label: menuLabel(fault),
    fault,
    scope,
  }));
}
