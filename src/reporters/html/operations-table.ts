/**
 * The run page's operations table: each operation by its label (`tools GET /weather/Paris #1`),
 * its status or failure kind, its duration, the fault that acted on it and the attempt it
 * retries. Operation ids stay in the JSON files; here they only appear as tooltips. A large run
 * lists only its notable operations (failed, injected, retries) up to `TABLE_LIMIT` rows.
 */
import { esc, formatMs } from "./page.js";
import type { RunModel } from "./run-model.js";
import type { OperationView } from "./timeline-data.js";

/** Runs with at most this many operations list every one. */
export const TABLE_ALL_LIMIT = 200;
/** Rows at most. */
export const TABLE_LIMIT = 1000;

/** The table row's element id of an operation. */
export function operationRowId(operationId: string): string {
  return `operation-${operationId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** The operations the timeline keeps one by one (none past its detail limit). */
export function operationsOf(model: RunModel): readonly OperationView[] {
  return model.timeline.operations ?? [];
}

/** Which operations the table lists. */
export function listedOperations(model: RunModel): { listed: OperationView[]; omitted: number } {
  const all = operationsOf(model);
  const notable =
    all.length <= TABLE_ALL_LIMIT
      ? [...all]
      : all.filter(
          (operation) =>
            operation.outcome !== "succeeded" || operation.injected !== null || operation.retryOf !== null,
        );
  const listed = notable.slice(0, TABLE_LIMIT);
  return { listed, omitted: all.length - listed.length };
}

/** A link to an operation's row, showing its label (plain text when it has no row). */
export function operationRef(
  operationId: string | null,
  labels: ReadonlyMap<string, string>,
  rows: ReadonlySet<string>,
): string {
  if (operationId === null) return '<span class="muted">—</span>';
  const text = esc(labels.get(operationId) ?? operationId);
  const title = ` title="${esc(operationId)}"`;
  if (!rows.has(operationId)) return `<span class="mono"${title}>${text}</span>`;
  return `<a class="mono" href="#${operationRowId(operationId)}"${title}>${text}</a>`;
}

function outcomeCell(operation: OperationView): string {
  if (operation.outcome === "open") return '<span class="muted">no terminal event</span>';
  if (operation.outcome === "succeeded") return esc(operation.status ?? "ok");
  const status = operation.status === null ? "" : ` ${operation.status}`;
  return `<span class="fail-text">${esc(`${operation.failureKind ?? "failed"}${status}`)}</span>`;
}

/** The section, or nothing for a run without operations. */
export function operationsSection(model: RunModel): string {
  if (operationsOf(model).length === 0) return "";
  const { listed, omitted } = listedOperations(model);
  const labels = new Map(operationsOf(model).map((operation) => [operation.id, operation.label]));
  const rows = new Set(listed.map((operation) => operation.id));
  const body = listed
    .map(
      (operation) =>
        `<tr id="${operationRowId(operation.id)}" data-operation-id="${esc(operation.id)}">` +
        `<td><span class="mono" title="${esc(operation.id)}">${esc(operation.label)}</span></td>` +
        `<td>${outcomeCell(operation)}</td>` +
        `<td class="num">${operation.end === null ? '<span class="muted">—</span>' : esc(formatMs(operation.end - operation.start))}</td>` +
        `<td>${operation.injected === null ? '<span class="muted">—</span>' : `<code>${esc(operation.injected)}</code>`}</td>` +
        `<td>${operationRef(operation.retryOf, labels, rows)}</td></tr>`,
    )
    .join("");
  const note =
    omitted === 0
      ? ""
      : `<p class="note">${omitted} more operation${omitted === 1 ? "" : "s"} not listed (plain successes first; at most ${TABLE_LIMIT} rows).</p>`;
  return `<section id="operations"><h2>Operations</h2><div class="table-wrap"><table><thead><tr><th>Operation</th><th>Status or failure</th><th class="num">Duration</th><th>Fault</th><th>Retry of</th></tr></thead><tbody>${body}</tbody></table></div>${note}</section>`;
}
