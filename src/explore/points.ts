/**
 * Injection points (docs/explore.md, step 2): each operation a baseline run observed, named by
 * (dependency, method, exact path or MCP name, k), k its ordinal among that run's operations
 * with the same dependency, protocol, method and path. Pure functions of the events.
 */
import {
  labelMethod,
  type OperationIdentity,
  OperationOrdinals,
  operationLabel,
} from "../events/operation-label.js";
import type { AgentChaosEvent } from "../events/types.js";

export interface ObservedPoint extends OperationIdentity {
  /** HTTP methods upper-cased (targets compare them case-insensitively); MCP methods as sent. */
  readonly method: string;
  readonly k: number;
  /** The terminal event's `relayed_events`: an integer for an event stream, else null. */
  readonly relayedEvents: number | null;
}

export interface InjectionPoint extends ObservedPoint {
  /** `P1`, `P2`, ... in the order of the first baseline run. */
  readonly id: string;
  /** Its position in that order, from 0. */
  readonly index: number;
}

export interface SkippedPoint extends ObservedPoint {
  /** `unstable`: not observed in every baseline run; `untargetable`: no target names exactly it. */
  readonly reason: "unstable" | "untargetable";
  /** In how many baseline runs it was observed. */
  readonly seenInRuns: number;
}

/** What identifies an operation for a trigger counter: dependency, protocol, method, path. */
export function operationKey(point: OperationIdentity): string {
  return `${point.dependency}\u0000${point.protocol}\u0000${point.method}\u0000${point.path}`;
}

function pointKey(point: ObservedPoint): string {
  return `${operationKey(point)}\u0000${point.k}`;
}

/** `llm POST /v1/chat/completions #1`; an MCP operation without a name: `notes initialize #1`. */
export function pointLabel(point: Pick<ObservedPoint, "dependency" | "method" | "path" | "k">): string {
  return operationLabel(point);
}

/** Every operation of one run, in observation order, with its ordinal and stream evidence. */
export function observedPoints(events: readonly AgentChaosEvent[]): ObservedPoint[] {
  const relayed = new Map<string, number | null>();
  for (const event of events) {
    const payload = event.payload;
    if (payload.kind === "OPERATION_SUCCEEDED" || payload.kind === "OPERATION_FAILED") {
      relayed.set(payload.operation_id, payload.relayed_events);
    }
  }
  const ordinals = new OperationOrdinals();
  const points: ObservedPoint[] = [];
  for (const event of events) {
    const payload = event.payload;
    if (payload.kind !== "OPERATION_OBSERVED") continue;
    const identity = {
      dependency: payload.dependency,
      protocol: payload.protocol,
      method: labelMethod(payload),
      path: payload.path,
    };
    const k = ordinals.next(identity);
    points.push({ ...identity, k, relayedEvents: relayed.get(payload.operation_id) ?? null });
  }
  return points;
}

/** How many operations of each operation key a run observed. */
export function operationCounts(points: readonly ObservedPoint[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const point of points)
    counts.set(operationKey(point), Math.max(counts.get(operationKey(point)) ?? 0, point.k));
  return counts;
}

/** Whether a target can name exactly this operation (`*` is a wildcard; `?`, `[`, `]` are not allowed in paths). */
function targetable(point: ObservedPoint): boolean {
  if (point.protocol === "mcp") return !point.path.includes("*");
  return /^\/[^?[\]*]*$/.test(point.path);
}

/**
 * The points of several baseline runs: those observed in every run (in the first run's order;
 * `relayedEvents` the smallest of the runs, null unless every run saw an event stream) and the
 * skipped ones (unstable first, in order of first appearance).
 */
export function stablePoints(runs: readonly (readonly ObservedPoint[])[]): {
  readonly points: InjectionPoint[];
  readonly skipped: SkippedPoint[];
} {
  const seen = new Map<string, { point: ObservedPoint; runs: number; relayed: (number | null)[] }>();
  for (const run of runs) {
    for (const point of run) {
      const key = pointKey(point);
      const entry = seen.get(key);
      if (entry === undefined) seen.set(key, { point, runs: 1, relayed: [point.relayedEvents] });
      else {
        entry.runs += 1;
        entry.relayed.push(point.relayedEvents);
      }
    }
  }
  const points: InjectionPoint[] = [];
  const unstable: SkippedPoint[] = [];
  const untargetable: SkippedPoint[] = [];
  for (const { point, runs: seenInRuns, relayed } of seen.values()) {
    if (seenInRuns < runs.length) {
      unstable.push({ ...point, reason: "unstable", seenInRuns });
      continue;
    }
    if (!targetable(point)) {
      untargetable.push({ ...point, reason: "untargetable", seenInRuns });
      continue;
    }
    const relayedEvents = relayed.some((value) => value === null) ? null : Math.min(...(relayed as number[]));
    const index = points.length;
    points.push({ ...point, relayedEvents, id: `P${index + 1}`, index });
  }
  return { points, skipped: [...unstable, ...untargetable] };
}
