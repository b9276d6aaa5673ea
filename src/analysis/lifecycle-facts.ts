/**
 * The facts of `fail_fast` and `cancellation` (docs/checks.md), read while the events are pushed:
 * how long the workload waited after each fault-related failure (checks/silences.ts), and which
 * operations an MCP_CANCELLED names. Their findings are placed after those of the other hooks.
 */
import { type EndedSilence, Silences } from "../checks/silences.js";
import type { AgentChaosEvent, FailureKind } from "../events/types.js";
import type { AnalysisStream } from "./analysis-stream.js";
import type { PlacedFinding } from "./check-findings.js";

const SILENCE_GROUP = 3;
const ABANDONED_GROUP = 4;

/**
 * How an MCP request the agent never got an answer to ends: withheld by `mcp_no_response`, or
 * (a delayed answer) given up by the agent, repeated by it, or cut off with its session.
 */
const ABANDONED: ReadonlySet<FailureKind> = new Set<FailureKind>([
  "injected_no_response",
  "client_cancelled",
  "client_timeout_inferred",
  "connection_closed",
]);

export class LifecycleFacts {
  readonly #silences = new Silences();
  /** Every wait that ended, in the order of the failures' acts. */
  readonly ended: EndedSilence[] = [];
  /** Operation ids named by MCP_CANCELLED. */
  readonly cancelled = new Set<string>();

  take(event: AgentChaosEvent, index: number): void {
    if (event.payload.kind === "MCP_CANCELLED") this.cancelled.add(event.payload.operation_id);
    else for (const silence of this.#silences.take(event, index)) this.ended.push(silence);
  }
}

/** The findings of the `silence` and `abandoned` hooks of the checks that are not off. */
export function lifecycleFindings(
  stream: Pick<AnalysisStream, "checks" | "plan" | "lifecycle" | "failures">,
  into: PlacedFinding[],
): void {
  for (const { name, definition } of stream.checks) {
    const config = stream.plan.checks[name];
    if (definition.silence !== undefined) {
      for (const silence of stream.lifecycle.ended) {
        const finding = definition.silence(silence, config);
        if (finding != null)
          into.push({ check: name, group: SILENCE_GROUP, a: silence.index, b: 0, finding });
      }
    }
    if (definition.abandoned === undefined) continue;
    for (const row of stream.failures) {
      const mcp = row.op.observed?.payload.protocol === "mcp";
      if (!mcp || row.op.injected === null || !ABANDONED.has(row.failureKind)) continue;
      const finding = definition.abandoned({
        operationId: row.op.id,
        cancelled: stream.lifecycle.cancelled.has(row.op.id),
      });
      if (finding != null) into.push({ check: name, group: ABANDONED_GROUP, a: row.index, b: 0, finding });
    }
  }
}
