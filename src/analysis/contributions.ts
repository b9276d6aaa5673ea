/**
 * What one operation adds to the evidence once its own events are all read: the per-dependency
 * counts, the `<method> <path>` it was observed with (for FAULT_NOT_TRIGGERED), its retry gap and
 * its repeat of a lost write (for the checks). The bounded stream adds an operation when it
 * closes and forgets it; the evidence adds the operations still held when it is drawn.
 */
import type { Finding, RetryGap } from "../checks/types.js";
import type { CheckName } from "../scenario/types-v2.js";
import type { AnalysisStream } from "./analysis-stream.js";
import type { Operation } from "./operations.js";
import { observedKey } from "./v2/diagnostics.js";

export interface KeyCount {
  count: number;
  /** The first-named order of the first operation observed with it. */
  order: number;
}

/** A finding with where it goes in its check's list: by `group`, then `a`, then `b`. */
export interface PlacedFinding {
  readonly group: number;
  readonly a: number;
  readonly b: number;
  readonly finding: Finding;
}

export interface Contributions {
  readonly observedBy: Map<string, number>;
  readonly failedBy: Map<string, number>;
  /** Per dependency with a fault that may still go unselected. */
  readonly keys: Map<string, Map<string, KeyCount>>;
  /** What the checks' `retry` and `repeat` hooks found. */
  readonly findings: Map<CheckName, PlacedFinding[]>;
}

export const RETRY_GROUP = 1;
export const REPEAT_GROUP = 2;

export function noContributions(dependencies: readonly string[]): Contributions {
  return {
    observedBy: new Map(),
    failedBy: new Map(),
    keys: new Map(dependencies.map((dependency) => [dependency, new Map()])),
    findings: new Map(),
  };
}

/** A copy that the evidence can add to without changing the stream. */
export function copyContributions(from: Contributions): Contributions {
  return {
    observedBy: new Map(from.observedBy),
    failedBy: new Map(from.failedBy),
    keys: new Map(
      [...from.keys].map(([dependency, keys]) => [
        dependency,
        new Map([...keys].map(([key, count]) => [key, { ...count }])),
      ]),
    ),
    findings: new Map([...from.findings].map(([name, list]) => [name, [...list]])),
  };
}

const add = (map: Map<string, number>, key: string, count: number) =>
  map.set(key, (map.get(key) ?? 0) + count);

function found(into: Contributions, name: CheckName, placed: PlacedFinding): void {
  const list = into.findings.get(name);
  if (list === undefined) into.findings.set(name, [placed]);
  else list.push(placed);
}

/** The failure before a retry in its chain, if any: the latest before it was observed. */
function retryGap(op: Operation): RetryGap | null {
  const start = op.observed ?? op.retry;
  if (start === null) return null;
  const previous = op.chain?.root().failedBefore(start.index);
  const failure = previous?.failure;
  if (previous == null || failure == null) return null;
  return {
    retryId: op.id,
    failedId: previous.id,
    gapMs: start.elapsedMs - failure.elapsedMs,
    retryAfterMs: failure.payload.retry_after_ms,
  };
}

export function contribute(
  op: Operation,
  into: Contributions,
  stream: Pick<AnalysisStream, "checks" | "plan" | "lostWrites">,
): void {
  const observed = op.observed;
  if (observed !== null) {
    const { dependency } = observed.payload;
    add(into.observedBy, dependency, 1);
    if (op.failures > 0) add(into.failedBy, dependency, op.failures);
    const keys = into.keys.get(dependency);
    if (keys !== undefined) {
      const key = observedKey(observed.payload);
      const count = keys.get(key);
      if (count === undefined) keys.set(key, { count: 1, order: op.order });
      else {
        count.count += 1;
        count.order = Math.min(count.order, op.order);
      }
    }
  }
  if (stream.checks.length === 0) return;
  const gap = op.retry === null ? null : retryGap(op);
  if (gap !== null) {
    const retryIndex = (op.retry as { index: number }).index;
    for (const { name, definition } of stream.checks) {
      const finding = definition.retry?.(gap, stream.plan.checks[name]);
      if (finding != null) found(into, name, { group: RETRY_GROUP, a: retryIndex, b: 0, finding });
    }
  }
  if (observed === null || stream.lostWrites.size === 0) return;
  const lost = stream.lostWrites.get(`${observed.payload.dependency}\n${observed.payload.fingerprint}`);
  for (const write of lost ?? []) {
    if ((write.failure?.index ?? Number.POSITIVE_INFINITY) >= observed.index) continue;
    for (const { name, definition } of stream.checks) {
      const finding = definition.repeat?.(write, op);
      if (finding != null) found(into, name, { group: REPEAT_GROUP, a: write.order, b: op.order, finding });
    }
  }
}
