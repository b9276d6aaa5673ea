/**
 * The run page's SVG timeline: one lane per dependency, each operation a bar from observed to
 * terminal, injected operations marked with their fault id, retry links between attempts and
 * the recovery latency at each recovering attempt. Beyond `DETAIL_LIMIT` operations the lanes
 * are drawn as per-bucket counts (failures and injections kept), so a run of any length stays a
 * few hundred shapes; at most `LANE_LIMIT` lanes are drawn.
 */
import { esc, formatMs } from "./page.js";
import type { EvidenceView, RunModel } from "./run-model.js";
import {
  BUCKETS,
  DETAIL_LIMIT,
  type LaneBuckets,
  type OperationView,
  scaleSpan,
  type TimelineData,
} from "./timeline-data.js";

export { DETAIL_LIMIT };
/** Lanes drawn at most (one per dependency: a scenario has a handful). */
export const LANE_LIMIT = 64;
const WIDTH = 1160;
const LABEL = 150;
const PLOT_START = LABEL + 14;
const PLOT_END = WIDTH - 56;
const ROW = 20;
const LANE_PAD = 22;
const AXIS = 26;

/**
 * Where text labels went, so that no two overlap: a label whose box would touch one already
 * drawn is left out (its marker stays, and the tooltip and tables still name it). Widths are
 * estimated from the label's length at the labels' 10 px font, generously.
 */
class LabelSpace {
  readonly #boxes: { x1: number; x2: number; y1: number; y2: number }[] = [];

  /** Takes the box of a label of `text` whose baseline starts at (x, y) (or ends there, `anchor` end). */
  claim(text: string, x: number, y: number, anchor: "start" | "end" = "start"): boolean {
    const width = text.length * 6.4;
    const box = anchor === "start" ? { x1: x, x2: x + width } : { x1: x - width, x2: x };
    const placed = { ...box, y1: y - 10, y2: y + 2 };
    const clash = this.#boxes.some(
      (other) => placed.x1 < other.x2 && other.x1 < placed.x2 && placed.y1 < other.y2 && other.y1 < placed.y2,
    );
    if (!clash) this.#boxes.push(placed);
    return !clash;
  }
}

interface Scale {
  readonly from: number;
  readonly to: number;
  x(ms: number): number;
}

function scaleOf(model: RunModel): Scale {
  const timeline = model.timeline;
  const { from, to } =
    timeline.span === null
      ? scaleSpan(0, timeline.workloadEnd ?? model.durationMs)
      : scaleSpan(timeline.span.from, timeline.span.to);
  const span = to - from;
  return { from, to, x: (ms) => PLOT_START + ((ms - from) / span) * (PLOT_END - PLOT_START) };
}

/** Tick spacing of 1, 2 or 5 × 10^k ms giving at most ~8 ticks. */
function tickStep(span: number): number {
  const raw = span / 8;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) if (raw <= factor * power) return factor * power;
  return 10 * power;
}

function axis(scale: Scale, top: number, bottom: number): string {
  const step = tickStep(scale.to - scale.from);
  const parts: string[] = ['<g class="axis">'];
  for (let t = Math.ceil(scale.from / step) * step; t <= scale.to; t += step) {
    const x = scale.x(t).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}"/>`);
    parts.push(`<text x="${x}" y="${top - 8}" text-anchor="middle">${esc(formatMs(t))}</text>`);
  }
  parts.push("</g>");
  return parts.join("");
}

/** Packs operations into rows so bars of one lane never overlap. */
function packRows(
  operations: readonly OperationView[],
  end: (op: OperationView) => number,
): Map<string, number> {
  const rowEnds: number[] = [];
  const rows = new Map<string, number>();
  for (const operation of [...operations].sort((a, b) => a.start - b.start)) {
    let row = rowEnds.findIndex((last) => last < operation.start);
    if (row === -1) {
      row = rowEnds.length;
      rowEnds.push(0);
    }
    rowEnds[row] = end(operation) + 0.0001;
    rows.set(operation.id, row);
  }
  return rows;
}

function domId(operationId: string): string {
  return `op-${operationId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function operationTitle(operation: OperationView, labels: ReadonlyMap<string, string>): string {
  const outcome =
    operation.outcome === "open"
      ? "no terminal event"
      : operation.outcome === "succeeded"
        ? `succeeded ${operation.status ?? ""}`
        : `failed ${operation.failureKind ?? ""}${operation.status === null ? "" : ` ${operation.status}`}`;
  const duration = operation.end === null ? "" : ` · ${formatMs(operation.end - operation.start)}`;
  const fault = operation.injected === null ? "" : ` · fault ${operation.injected}`;
  const retry =
    operation.retryOf === null ? "" : ` · retry of ${labels.get(operation.retryOf) ?? operation.retryOf}`;
  return `${operation.label} · ${outcome}${duration}${fault}${retry}`;
}

function detailed(
  model: RunModel,
  all: readonly OperationView[],
  lanes: readonly string[],
  scale: Scale,
): { body: string; height: number } {
  const parts: string[] = [];
  const position = new Map<string, { x1: number; x2: number; y: number }>();
  const labels = new Map(all.map((operation) => [operation.id, operation.label]));
  const space = new LabelSpace();
  const workloadEnd = model.timeline.workloadEnd;
  const barEnd = (operation: OperationView): number =>
    Math.max(scale.x(operation.end ?? workloadEnd ?? operation.start), scale.x(operation.start) + 3);
  let top = AXIS + 6;
  lanes.forEach((lane, laneIndex) => {
    const operations = all.filter((operation) => operation.lane === lane);
    const rows = packRows(operations, (operation) => operation.end ?? workloadEnd ?? operation.start);
    const rowCount = Math.max(1, ...[...rows.values()].map((row) => row + 1));
    const height = rowCount * ROW + LANE_PAD;
    parts.push(
      `<g class="lane" data-lane="${esc(lane)}">`,
      `<rect class="lane-bg${laneIndex % 2 === 1 ? " alt" : ""}" x="0" y="${top}" width="${WIDTH}" height="${height}"/>`,
      `<text class="lane-label" x="12" y="${top + 18}">${esc(lane)}</text>`,
      `<text class="lane-sub" x="12" y="${top + 33}">${operations.length} operation${operations.length === 1 ? "" : "s"}</text>`,
    );
    for (const operation of operations) {
      const y = top + LANE_PAD / 2 + (rows.get(operation.id) ?? 0) * ROW + 4;
      const x1 = scale.x(operation.start);
      const x2 = barEnd(operation);
      position.set(operation.id, { x1, x2, y: y + 5 });
      const injected = operation.injected === null ? "" : " injected";
      parts.push(
        `<rect id="${domId(operation.id)}" class="op op-${operation.outcome}${injected}" data-operation-id="${esc(operation.id)}"` +
          `${operation.injected === null ? "" : ` data-fault-id="${esc(operation.injected)}"`}` +
          ` x="${x1.toFixed(1)}" y="${y}" width="${(x2 - x1).toFixed(1)}" height="10"><title>${esc(operationTitle(operation, labels))}</title></rect>`,
      );
      if (operation.injected !== null) {
        const text = space.claim(operation.injected, x1 + 6, y - 1)
          ? `<text class="fault-label" x="${(x1 + 6).toFixed(1)}" y="${y - 1}">${esc(operation.injected)}</text>`
          : `<title>${esc(`fault ${operation.injected}`)}</title>`;
        parts.push(
          `<g class="injection" data-fault-id="${esc(operation.injected)}" data-operation-id="${esc(operation.id)}">` +
            `<path class="marker" d="M${x1.toFixed(1)} ${y - 1} l-4 -6 h8 z"/>${text}</g>`,
        );
      }
    }
    parts.push("</g>");
    top += height;
  });
  parts.push(...links(all, position, labels), ...recoveryLabels(model.evidence, position, space));
  return { body: parts.join(""), height: top + 8 };
}

function links(
  operations: readonly OperationView[],
  position: ReadonlyMap<string, { x1: number; x2: number; y: number }>,
  labels: ReadonlyMap<string, string>,
): string[] {
  const parts: string[] = [];
  const fromCount = new Map<string, number>();
  for (const operation of operations) {
    if (operation.retryOf === null) continue;
    const from = position.get(operation.retryOf);
    const to = position.get(operation.id);
    if (from === undefined || to === undefined) continue;
    const nth = fromCount.get(operation.retryOf) ?? 0;
    fromCount.set(operation.retryOf, nth + 1);
    const bend = Math.max(12, Math.abs(to.x1 - from.x2) / 3);
    // Attempts on one row are joined by an arc under the row, deeper for each further retry
    // of the same attempt, so links never run through the bars between them.
    const sag = from.y === to.y ? 6 + nth * 3 : 0;
    const d =
      `M${from.x2.toFixed(1)} ${from.y} C${(from.x2 + bend).toFixed(1)} ${from.y + sag} ` +
      `${(to.x1 - bend).toFixed(1)} ${to.y + sag} ${to.x1.toFixed(1)} ${to.y}`;
    parts.push(
      `<path class="retry-link" data-from="${esc(operation.retryOf)}" data-to="${esc(operation.id)}" marker-end="url(#arrow)" d="${d}">` +
        `<title>${esc(`${operation.label} retries ${labels.get(operation.retryOf) ?? operation.retryOf}`)}</title></path>`,
    );
  }
  return parts;
}

function recoveryLabels(
  evidence: readonly EvidenceView[],
  position: ReadonlyMap<string, { x1: number; x2: number; y: number }>,
  space: LabelSpace,
): string[] {
  const longest = new Map<string, number>();
  for (const row of evidence) {
    if (row.retry === null || row.latencyMs === null) continue;
    longest.set(row.retry, Math.max(longest.get(row.retry) ?? 0, row.latencyMs));
  }
  const parts: string[] = [];
  for (const [operationId, latency] of longest) {
    const at = position.get(operationId);
    if (at === undefined) continue;
    if (!space.claim(`recovered +${formatMs(latency)}`, at.x2, at.y - 7, "end")) continue;
    parts.push(
      `<text class="recovery-label" data-operation-id="${esc(operationId)}" text-anchor="end" x="${at.x2.toFixed(1)}" y="${at.y - 7}">recovered +${esc(formatMs(latency))}</text>`,
    );
  }
  return parts;
}

const NO_OPERATIONS: LaneBuckets = { count: 0, total: [], failed: [], injected: [] };

function aggregated(
  buckets: ReadonlyMap<string, LaneBuckets>,
  lanes: readonly string[],
  scale: Scale,
): { body: string; height: number } {
  const parts: string[] = [];
  const laneHeight = 76;
  const bucketWidth = (PLOT_END - PLOT_START) / BUCKETS;
  const span = scale.to - scale.from;
  let top = AXIS + 6;
  lanes.forEach((lane, laneIndex) => {
    const { count, total, failed, injected } = buckets.get(lane) ?? NO_OPERATIONS;
    const peak = Math.max(1, ...total);
    const base = top + laneHeight - 8;
    const usable = laneHeight - 26;
    parts.push(
      `<g class="lane aggregated" data-lane="${esc(lane)}">`,
      `<rect class="lane-bg${laneIndex % 2 === 1 ? " alt" : ""}" x="0" y="${top}" width="${WIDTH}" height="${laneHeight}"/>`,
      `<text class="lane-label" x="12" y="${top + 18}">${esc(lane)}</text>`,
      `<text class="lane-sub" x="12" y="${top + 33}">${count} operations</text>`,
      `<text class="lane-sub" x="12" y="${top + 47}">peak ${peak} per bucket</text>`,
    );
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const all = total[bucket] ?? 0;
      if (all === 0) continue;
      const x = PLOT_START + bucket * bucketWidth;
      const bad = failed[bucket] ?? 0;
      const h = Math.max(1.5, (all / peak) * usable);
      const hBad = bad === 0 ? 0 : Math.max(1.5, (bad / peak) * usable);
      const from = scale.from + (bucket / BUCKETS) * span;
      const title = `${formatMs(from)}–${formatMs(from + span / BUCKETS)}: ${all} operations, ${bad} failed`;
      parts.push(
        `<rect class="bin-ok" x="${x.toFixed(1)}" y="${(base - h).toFixed(1)}" width="${Math.max(1, bucketWidth - 1).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(title)}</title></rect>`,
      );
      if (hBad > 0) {
        parts.push(
          `<rect class="bin-failed" x="${x.toFixed(1)}" y="${(base - hBad).toFixed(1)}" width="${Math.max(1, bucketWidth - 1).toFixed(1)}" height="${hBad.toFixed(1)}"/>`,
        );
      }
      const faults = injected[bucket];
      if (faults !== undefined) {
        const ids = [...faults.keys()].join(" ");
        const text = [...faults].map(([id, n]) => `${id} ×${n}`).join(", ");
        const cx = x + bucketWidth / 2;
        parts.push(
          `<g class="injection" data-fault-id="${esc(ids)}"><path class="marker" d="M${cx.toFixed(1)} ${top + 12} l-4 -6 h8 z"/><title>${esc(`injected: ${text}`)}</title></g>`,
        );
      }
    }
    parts.push("</g>");
    top += laneHeight;
  });
  return { body: parts.join(""), height: top + 8 };
}

/** Operations of the lanes past `LANE_LIMIT`, which are not drawn. */
function undrawnOperations(timeline: TimelineData, drawn: ReadonlySet<string>): number {
  if (timeline.operations !== null)
    return timeline.operations.filter((operation) => !drawn.has(operation.lane)).length;
  let count = 0;
  for (const [lane, counts] of timeline.buckets ?? []) if (!drawn.has(lane)) count += counts.count;
  return count;
}

/** The timeline section's inner HTML: the SVG, its legend and, when aggregated, a note. */
export function renderTimeline(model: RunModel): string {
  const timeline = model.timeline;
  const scale = scaleOf(model);
  const lanes = model.lanes.slice(0, LANE_LIMIT);
  const detail = timeline.operations !== null;
  const { body, height } =
    timeline.operations !== null
      ? detailed(model, timeline.operations, lanes, scale)
      : aggregated(timeline.buckets ?? new Map(), lanes, scale);
  const svg =
    `<svg class="timeline${detail ? "" : " aggregated"}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Operation timeline">` +
    `<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L8 4 L0 8 z" fill="#6b4fbb"/></marker></defs>` +
    axis(scale, AXIS, height - 8) +
    body +
    "</svg>";
  const legend = detail
    ? '<div class="legend"><span style="--c:#3f9d5d">succeeded</span><span style="--c:#d64533">failed</span><span style="--c:#9aa3b2">no terminal event</span><span style="--c:#c2410c">fault injected (▼ fault id)</span><span style="--c:#6b4fbb">retry link</span></div>'
    : '<div class="legend"><span style="--c:#3f9d5d">operations started in the bucket</span><span style="--c:#d64533">failed</span><span style="--c:#c2410c">bucket with injections</span></div>';
  const note = detail
    ? ""
    : `<p class="note">${timeline.operationCount} operations: drawn as ${BUCKETS} time buckets per lane (operations are drawn one by one up to ${DETAIL_LIMIT}). Hover a bucket for its counts.</p>`;
  const hidden = model.lanes.length - lanes.length;
  const lanesNote =
    hidden <= 0
      ? ""
      : `<p class="note">${hidden} more lanes with ${undrawnOperations(timeline, new Set(lanes))} operations are left out (at most ${LANE_LIMIT} lanes are drawn).</p>`;
  const empty = timeline.operationCount === 0 ? '<p class="note">No operation was observed.</p>' : "";
  return `<div class="timeline-wrap">${svg}</div>${legend}${note}${lanesNote}${empty}`;
}
