/**
 * Which experiments explore can run (docs/explore.md, steps 4–6) and the scenario of each. Pure.
 *
 * - Depth 1: one candidate per (point, menu entry that applies to it), in matrix order.
 * - Depth 2: ordered pairs of depth-1 experiments that passed or recovered, the first one's
 *   point before the second's. The second fault's occurrence is shifted by the extra operations
 *   of its method and path that the first fault's experiment observed (its retries), so it still
 *   lands on the second point; a pair whose second point the first experiment no longer
 *   reached is not a candidate.
 */
import type { Dependency, Fault, Scenario, Target } from "../scenario/types.js";
import { applies, type MenuEntry } from "./menu.js";
import { type InjectionPoint, operationKey, pointLabel } from "./points.js";

export interface PlannedFault {
  readonly point: InjectionPoint;
  readonly entry: MenuEntry;
  /** The trigger's occurrence: the point's k (shifted for a pair's second fault). */
  readonly occurrence: number;
}

export interface Candidate {
  readonly depth: 1 | 2;
  readonly faults: readonly PlannedFault[];
  /** Stable name: the points and menu entries, e.g. `crm GET /orders/7 #2 | http_error status_code=503`. */
  readonly key: string;
}

export function faultLabel(fault: PlannedFault): string {
  return `${pointLabel(fault.point)} | ${fault.entry.label}`;
}

function candidate(faults: readonly PlannedFault[]): Candidate {
  return {
    depth: faults.length === 1 ? 1 : 2,
    faults,
    key: faults.map(faultLabel).join(" + "),
  };
}

/** Every (point, applicable entry), points first, in the menu's order. */
export function depthOneCandidates(
  points: readonly InjectionPoint[],
  menu: readonly MenuEntry[],
  dependencyOf: (name: string) => Dependency,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const point of points) {
    for (const entry of menu) {
      if (applies(entry, point, dependencyOf(point.dependency))) {
        candidates.push(candidate([{ point, entry, occurrence: point.k }]));
      }
    }
  }
  return candidates;
}

/** A depth-1 experiment that passed or recovered, and how many operations of each key its run observed. */
export interface PassedSingle {
  readonly candidate: Candidate;
  readonly counts: ReadonlyMap<string, number>;
}

export function depthTwoCandidates(
  singles: readonly PassedSingle[],
  baselineCounts: ReadonlyMap<string, number>,
): Candidate[] {
  const pairs: Candidate[] = [];
  for (const first of singles) {
    const a = first.candidate.faults[0];
    if (a === undefined || first.candidate.depth !== 1) continue;
    for (const second of singles) {
      const b = second.candidate.faults[0];
      if (b === undefined || second.candidate.depth !== 1 || b.point.index <= a.point.index) continue;
      const key = operationKey(b.point);
      const seen = first.counts.get(key) ?? 0;
      const occurrence = b.point.k + Math.max(0, seen - (baselineCounts.get(key) ?? 0));
      if (seen < occurrence) continue;
      pairs.push(candidate([a, { ...b, occurrence }]));
    }
  }
  return pairs;
}

function targetOf(point: InjectionPoint): Target {
  if (point.protocol === "http") return { kind: "http", method: point.method, path: point.path };
  return { kind: "mcp", method: point.method, name: point.path === "" ? null : point.path };
}

/** The fault of one planned injection, id `p<point number>-<type>` (e.g. `p4-http-error`). */
export function plannedFault(planned: PlannedFault): Fault {
  const fault = {
    ...planned.entry.fault,
    id: `p${planned.point.index + 1}-${planned.entry.fault.type.replaceAll("_", "-")}`,
    dependency: planned.point.dependency,
    target: targetOf(planned.point),
    trigger: { kind: "occurrence_schedule", occurrences: [planned.occurrence] },
  } as Fault;
  return planned.entry.atPoint?.(fault, planned.point) ?? fault;
}

/** The experiment's scenario: the base scenario with exactly the candidate's faults, in order. */
export function experimentScenario(base: Scenario, experiment: Candidate): Scenario {
  return { ...base, faults: experiment.faults.map(plannedFault) };
}
