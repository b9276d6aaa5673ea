import type { UpstreamPort } from "../proxy/forward.js";
import type { ResolvedHttpDependency } from "./dependencies.js";
import type { ReplayPlan, ReplayUpstream } from "./replay-steps.js";
import type { StepContext } from "./step-context.js";

/**
 * Record and replay as the steps of one run see them. The modules behind them (cassettes, the
 * recording upstream, the cassette upstream) load only for a run that records or has a
 * dependency with `replay`; a live run starts its dependencies without loading them
 * (docs/replay.md, docs/performance.md).
 */
export interface RunReplay {
  /** The cassettes this run serves from and records into; null: a live run. */
  readonly plan: ReplayPlan | null;
  /** Whether a dependency is served from its cassette (no process, no readiness). */
  isServed(name: string): boolean;
  /** The upstream a replayed dependency's proxy forwards to; null for a live one. */
  startUpstream(context: StepContext, entry: ResolvedHttpDependency): Promise<ReplayUpstream | null>;
  /** The proxy options of a dependency served from its cassette. */
  proxyOptions(upstream: ReplayUpstream | null): { upstream?: UpstreamPort; replayMismatchStatus?: number };
  /** Writes every cassette this run recorded. */
  writeRecordings(context: StepContext): Promise<void>;
}

const LIVE: RunReplay = {
  plan: null,
  isServed: () => false,
  startUpstream: async () => null,
  proxyOptions: () => ({}),
  writeRecordings: async () => undefined,
};

/** Whether the run records or serves any dependency from a cassette. */
export function usesReplay(context: StepContext): boolean {
  if (context.record !== undefined) return true;
  return context.scenario.dependencies.some((dependency) => dependency.replay !== undefined);
}

/** Reads the run's cassettes (a missing or broken one is a setup error), or none for a live run. */
export async function planRunReplay(context: StepContext): Promise<RunReplay> {
  if (!usesReplay(context)) return LIVE;
  const steps = await import("./replay-steps.js");
  const plan = await steps.planReplay(context);
  return {
    plan,
    isServed: (name) => steps.isServed(plan, name),
    startUpstream: (given, entry) => steps.startReplayUpstream(given, plan, entry),
    proxyOptions: (upstream) => steps.replayProxyOptions(upstream),
    writeRecordings: (given) => steps.writeRecordings(given, plan),
  };
}
