/**
 * The diagnostic sentences of the internal model (docs/evidence.md): fault ids, operation labels
 * (`llm POST /v1/chat/completions #2`; the JSON keeps the ids), counts, methods, paths and
 * fixed words only. Sentences about one fault of several start with
 * `fault <id>: ` followed by the schema-1 wording.
 */
import { printableLabel } from "../events/operation-label.js";
import type { NotAppliedReason } from "../events/types.js";
import type { CorruptedRetry } from "./corrupted-retries.js";
import type { RecoveryRow } from "./types.js";

/** How many method/path pairs a FAULT_NOT_TRIGGERED diagnostic lists at most. */
export const MAX_LISTED_TARGETS = 10;

export function aboutFault(faultId: string, sentence: string): string {
  return `fault ${faultId}: ${sentence}`;
}

/** How an observed operation is listed: `<method> <path>`, or the method alone without a path. */
export function observedKey(observed: { readonly method: string; readonly path: string }): string {
  return printableLabel(observed.path === "" ? observed.method : `${observed.method} ${observed.path}`);
}

/**
 * What was observed on a dependency, from the count of each key in the order first observed:
 * `<method> <path> (<count>)` per key, most frequent first, ties in that order, at most 10, then
 * `and <n> more` when there were more.
 */
export function describeObserved(dependency: string, counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return `no operations were observed on ${dependency}`;
  // Array.prototype.sort is stable: equal counts keep the order first observed.
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const listed = ranked.slice(0, MAX_LISTED_TARGETS).map(([key, count]) => `${key} (${count})`);
  const more = ranked.length - MAX_LISTED_TARGETS;
  return `observed on ${dependency}: ${listed.join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
}

/** Rule 9, one per fault without a selection. */
export function faultNotTriggered(faultId: string, observed: string): string {
  return aboutFault(faultId, `the configured trigger produced no fault injection; ${observed}`);
}

/** Rule 14, one per FAULT_NOT_APPLIED. */
export function faultNotApplied(faultId: string, operation: string, reason: NotAppliedReason): string {
  return `fault ${faultId} was selected for operation ${operation} but not applied: ${reason}`;
}

/** Names an operation for a person (the analysis keeps the labels). */
export type Label = (operationId: string) => string;

/** Rule 4a, one per retried row of a `give_up` fault. */
export function unexpectedRetry(row: RecoveryRow, label: Label): string {
  return `operation ${label(row.failedOperationId)} failed under fault ${row.faultId}, which expects give_up, and was retried by operation ${row.retriedBy === null ? "none" : label(row.retriedBy)}`;
}

/** Rule 4a, one per call a `give_up` corruption fault corrupted that the workload repeated. */
export function corruptedCallRetried(retry: CorruptedRetry, label: Label): string {
  return `operation ${label(retry.corruptedOperationId)} was corrupted by fault ${retry.faultId}, which expects give_up, and was retried by operation ${label(retry.retriedBy)}`;
}

/** Rule 16, one per unresolved truncated row. */
export function partialResponseAccepted(row: RecoveryRow, label: Label): string {
  return `operation ${label(row.failedOperationId)} got a silently truncated response from fault ${row.faultId}, and no complete retry followed`;
}

/** Rule 10: evidence that cannot come from a correct run. */
export function duplicateInjection(operation: string): string {
  return `duplicate fault injection evidence was recorded for operation ${operation}`;
}

export function unattributedFailure(operation: string): string {
  return `operation ${operation} failed as fault-related, but no configured fault was injected into its retry chain`;
}

/** Rule 18's last line: how to keep the check's findings without failing the run. */
export function enforcedCheckHint(check: string): string {
  const why = check === "retry_after" ? " (retry_after is enforced by default)" : "";
  return `check ${check} is enforced${why}; to report its findings without failing the run, set checks: {${check}: report} in the scenario`;
}

export const UNKNOWN_FAULT_EVIDENCE =
  "fault evidence was recorded for a fault the scenario does not configure";
