/**
 * `--menu extended` (docs/explore.md, "The extended menu"): the default menu plus the fault types
 * that came after it — a corruption of the first leaf value of each HTTP response, a misbehaving
 * model at each model call, and an outage of each dependency. Pure, but for the evidence read
 * from the baseline's and the experiments' events.
 */
import type { AgentChaosEvent, NotAppliedReason } from "../events/types.js";
import { STDOUT_SINK } from "../scenario/corruption.js";
import type { MisbehaveKind, MisbehaveProvider } from "../scenario/model-faults.js";
import type { Dependency, Fault } from "../scenario/types.js";
import { HTTP_TARGET, MCP_TARGET, type MenuEntry, menuLabel, PLACEHOLDER } from "./menu.js";
import { type InjectionPoint, type ObservedPoint, operationKey } from "./points.js";
import type { PlannedExperiment } from "./records.js";
import { runEvents } from "./runner.js";

/** The `--menu` word that asks for the extended menu (a file of that name is `./extended`). */
export const EXTENDED_MENU = "extended";

/** How long each dependency's outage lasts. */
export const OUTAGE_DURATION_MS = 2000;

/** The model endpoints explore recognises by path, and the provider whose answers they carry. */
const MODEL_ENDPOINTS: Readonly<Record<string, MisbehaveProvider>> = {
  "/v1/chat/completions": "openai",
  "/v1/responses": "openai_responses",
  "/v1/messages": "anthropic",
};
const MISBEHAVE_KINDS: readonly MisbehaveKind[] = ["tool_args_invalid", "empty"];

/** The provider of a model call, or null when the point is not one. */
export function modelProvider(point: ObservedPoint): MisbehaveProvider | null {
  if (point.protocol !== "http") return null;
  return Object.hasOwn(MODEL_ENDPOINTS, point.path) ? (MODEL_ENDPOINTS[point.path] ?? null) : null;
}

/**
 * When each dependency was first observed in one run, in milliseconds after WORKLOAD_STARTED
 * (never negative).
 */
export function dependencyStarts(events: readonly AgentChaosEvent[]): Map<string, number> {
  const starts = new Map<string, number>();
  let workloadAt: number | null = null;
  for (const event of events) {
    if (event.payload.kind === "WORKLOAD_STARTED" && workloadAt === null) workloadAt = event.elapsed_ms;
    if (event.payload.kind !== "OPERATION_OBSERVED" || starts.has(event.payload.dependency)) continue;
    starts.set(event.payload.dependency, Math.max(0, event.elapsed_ms - (workloadAt ?? 0)));
  }
  return starts;
}

/** The earliest first observation of each dependency over the baseline runs. */
export function earliestStarts(runs: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const earliest = new Map<string, number>();
  for (const run of runs) {
    for (const [dependency, at] of run)
      earliest.set(dependency, Math.min(earliest.get(dependency) ?? at, at));
  }
  return earliest;
}

export interface ExtendedContext {
  readonly dependencies: readonly Dependency[];
  readonly points: readonly InjectionPoint[];
  /** From `earliestStarts`. */
  readonly starts: ReadonlyMap<string, number>;
}

const HTTP = { ...PLACEHOLDER, target: HTTP_TARGET };

function entry(
  fault: Fault,
  rest: Omit<MenuEntry, "id" | "fault" | "scope" | "label">,
  label?: string,
): MenuEntry {
  return { id: "M0", label: label ?? menuLabel(fault), fault, scope: "any", ...rest };
}

/** The corruption entry: the first leaf value, sinks stdout and every other dependency. */
function corruptionEntry(context: ExtendedContext): MenuEntry {
  const fault: Fault = {
    ...HTTP,
    type: "http_corrupt",
    expect: "handle",
    pointer: null,
    sinks: [STDOUT_SINK],
  };
  return entry(
    fault,
    {
      fitsPoint: (point) => point.protocol === "http",
      atPoint: (placed, point) => ({
        ...placed,
        sinks: [
          STDOUT_SINK,
          ...context.dependencies.map((each) => each.name).filter((name) => name !== point.dependency),
        ],
      }),
      unfitWhen: ["not_json", "pointer_not_found"],
    },
    `${menuLabel({ ...fault, sinks: [] }).replace(" sinks=", " first_leaf sinks=stdout+others")}`,
  );
}

function misbehaveEntries(): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const kind of MISBEHAVE_KINDS) {
    for (const provider of Object.values(MODEL_ENDPOINTS)) {
      const fault: Fault = { ...HTTP, type: "llm_misbehave", provider, kind };
      entries.push(
        entry(fault, {
          fitsPoint: (point) => modelProvider(point) === provider,
          // The answer had nothing the kind rewrites (e.g. no tool call for tool_args_invalid).
          unfitWhen: ["not_applicable"],
        }),
      );
    }
  }
  return entries;
}

/**
 * The outage entries: on the row of each dependency's first injection point, a fault that
 * targets every request of the dependency from its first observation for OUTAGE_DURATION_MS.
 */
function outageEntries(context: ExtendedContext): MenuEntry[] {
  const first = new Map<string, string>();
  for (const point of context.points) {
    if (!first.has(point.dependency)) first.set(point.dependency, `${operationKey(point)}\u0000${point.k}`);
  }
  const isFirst = (point: ObservedPoint): boolean =>
    context.starts.has(point.dependency) &&
    first.get(point.dependency) === `${operationKey(point)}\u0000${point.k}`;
  const outage = (placed: Fault, point: ObservedPoint): Fault =>
    ({
      ...placed,
      id: `${placed.id}-outage`,
      target:
        point.protocol === "http"
          ? { kind: "http", method: null, path: "/*" }
          : { kind: "mcp", method: null, name: "*" },
      trigger: {
        kind: "outage",
        startMs: context.starts.get(point.dependency) ?? 0,
        durationMs: OUTAGE_DURATION_MS,
      },
    }) as Fault;
  const http: Fault = { ...HTTP, type: "http_error", statusCode: 503 };
  const mcp: Fault = {
    ...PLACEHOLDER,
    target: MCP_TARGET,
    type: "mcp_error",
    code: -32603,
  };
  const suffix = ` outage_ms=${OUTAGE_DURATION_MS}`;
  return [
    entry(
      http,
      { fitsPoint: (point) => point.protocol === "http" && isFirst(point), atPoint: outage },
      menuLabel(http) + suffix,
    ),
    entry(
      mcp,
      { fitsPoint: (point) => point.protocol === "mcp" && isFirst(point), atPoint: outage },
      menuLabel(mcp) + suffix,
    ),
  ];
}

/** The entries `--menu extended` adds after the default menu's, in column order. */
export function extendedEntries(context: ExtendedContext): MenuEntry[] {
  return [corruptionEntry(context), ...misbehaveEntries(), ...outageEntries(context)];
}

/**
 * Whether a run shows its fault had nothing to act on: every FAULT_NOT_APPLIED has one of
 * `reasons`, and no value was replaced. The baseline's events cannot tell this beforehand (they
 * hold no bodies), so explore learns it from the experiment itself.
 */
export function foundNothingToActOn(
  events: readonly AgentChaosEvent[],
  reasons: readonly NotAppliedReason[],
): boolean {
  let notApplied = false;
  for (const event of events) {
    const payload = event.payload;
    if (payload.kind === "FAULT_INJECTED" && "canary_type" in payload && payload.canary_type != null)
      return false;
    if (payload.kind !== "FAULT_NOT_APPLIED") continue;
    if (!reasons.includes(payload.reason)) return false;
    notApplied = true;
  }
  return notApplied;
}

/**
 * Marks `notApplicable` each finished depth-1 experiment of an entry with `unfitWhen` whose fault
 * had nothing to act on: it is then no experiment (no confirmation, no replay, a `-` cell).
 */
export async function markUnfit(list: readonly PlannedExperiment[]): Promise<void> {
  for (const experiment of list) {
    const [only, ...more] = experiment.candidate.faults;
    const reasons = only?.entry.unfitWhen;
    if (more.length > 0 || reasons === undefined) continue;
    if (experiment.run?.reason_code !== "FAULT_NOT_APPLIED" || experiment.runFolder === null) continue;
    const events = await runEvents(experiment.runFolder);
    if (events !== null && foundNothingToActOn(events, reasons)) experiment.notApplicable = true;
  }
}
