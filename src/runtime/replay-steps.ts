/**
 * Record and replay in a run (docs/replay.md). Before anything starts, every cassette the run
 * serves from is read (a missing or broken one is a setup error naming the file); then each
 * http dependency with `replay` gets, behind its proxy, either the cassette standing in for the
 * upstream (no process, nothing sent upstream, REPLAY_STARTED) or, when `record` names it, the
 * recording upstream that writes the live answers into a cassette after the run.
 */
import { relative } from "node:path";
import { startRecordingUpstream } from "../proxy/cassette-recorder.js";
import {
  CassetteUpstream,
  mismatchMessage,
  REPLAY_MISMATCH_STATUS,
  type ReplayMismatch,
} from "../proxy/cassette-upstream.js";
import type { UpstreamPort } from "../proxy/forward.js";
import { type Cassette, CassetteBuilder, CassetteError } from "../replay/cassette.js";
import {
  cassetteProtocol,
  readDependencyCassette,
  recordCommandLine,
  replayedDependencies,
  shownCassette,
} from "../replay/scenario-cassettes.js";
import type { ReplayConfig } from "../scenario/types.js";
import type { ResolvedHttpDependency } from "./dependencies.js";
import { SetupFailure, type StepContext } from "./step-context.js";

/** What `agentchaos record` asks of a run. */
export interface RecordRequest {
  /** The dependencies to record (null: every one with `replay`). */
  readonly dependencies: readonly string[] | null;
  /** The existing cassettes `--append` adds to, by dependency. */
  readonly appendTo: ReadonlyMap<string, Cassette>;
  /** Filled once the run is over: one entry per cassette written. */
  readonly written: RecordedCassette[];
}

export interface RecordedCassette {
  readonly dependency: string;
  /** As the scenario wrote it. */
  readonly cassette: string;
  /** Interactions this run recorded (for `--append`, those it added). */
  readonly interactions: number;
}

/** How each replayed http dependency takes part in this run. */
export interface ReplayPlan {
  /** Served from these cassettes. */
  readonly served: ReadonlyMap<string, Cassette>;
  /** Recorded into these. */
  readonly recording: ReadonlyMap<string, CassetteBuilder>;
}

/** Records the run's REPLAY_MISMATCH for the first mismatch that no canary caused. */
export function mismatchReporter(context: StepContext): (mismatch: ReplayMismatch) => void {
  let reported = false;
  return (mismatch) => {
    // Canaries are looked for first: a corruption the canary propagated is the run's verdict.
    if (reported || mismatch.canaryCarried) return;
    reported = true;
    // A run error, recorded once; the workload goes on with the answer it was given.
    context.sink.emit({
      kind: "RUN_ERROR",
      reason_code: "REPLAY_MISMATCH",
      message: mismatchMessage(mismatch),
    });
  };
}

export function isRecorded(name: string, request: RecordRequest | undefined): boolean {
  if (request === undefined) return false;
  return request.dependencies === null || request.dependencies.includes(name);
}

function scenarioShown(sourcePath: string): string {
  const shown = relative(process.cwd(), sourcePath);
  return shown === "" || shown.startsWith("..") ? sourcePath : shown;
}

/**
 * Reads the cassettes of this run. `run` needs every one; `record` reads the ones it does not
 * record, and runs a dependency whose cassette does not exist yet live.
 */
export async function planReplay(context: StepContext): Promise<ReplayPlan> {
  const served = new Map<string, Cassette>();
  const recording = new Map<string, CassetteBuilder>();
  const request = context.record;
  const replayed = replayedDependencies(context.scenario.dependencies);
  for (const dependency of replayed) {
    if (isRecorded(dependency.name, request)) {
      recording.set(
        dependency.name,
        new CassetteBuilder({
          dependency: dependency.name,
          protocol: cassetteProtocol(dependency),
          match: dependency.replay.match,
          appendTo: request?.appendTo.get(dependency.name) ?? null,
        }),
      );
      continue;
    }
    try {
      served.set(dependency.name, await readDependencyCassette(dependency));
    } catch (error) {
      if (!(error instanceof CassetteError)) throw error;
      if (error.code === "CASSETTE_MISSING") {
        if (request !== undefined) continue;
        const how = recordCommandLine(scenarioShown(context.scenario.sourcePath), dependency.name);
        throw new SetupFailure(
          "DEPENDENCY_START_FAILED",
          `cassette ${shownCassette(dependency.replay)} of ${dependency.name} does not exist; record it with: ${how}`,
        );
      }
      throw new SetupFailure("DEPENDENCY_START_FAILED", error.message);
    }
  }
  return { served, recording };
}

/** An MCP dependency's cassette dialect (loaded only for one). */
async function mcpDialect(protocol: "http" | "mcp") {
  if (protocol !== "mcp") return {};
  return { dialect: (await import("../mcp/http/cassette-dialect.js")).mcpHttpDialect };
}

/** Whether a dependency is served from its cassette in this run (no process, no readiness). */
export function isServed(plan: ReplayPlan, name: string): boolean {
  return plan.served.has(name);
}

/** What a replayed dependency's proxy forwards to: the recording upstream, or the cassette. */
export interface ReplayUpstream {
  /** The proxy's upstream base URL. */
  readonly url: string;
  /** Stands in for the upstream inside the proxy (a cassette); null: forward to `url`. */
  readonly port: UpstreamPort | null;
  close(): Promise<void>;
}

/**
 * The upstream a replayed dependency's proxy forwards to, or null for a live one. A served one
 * records REPLAY_STARTED; its first mismatch records the run's REPLAY_MISMATCH.
 */
export async function startReplayUpstream(
  context: StepContext,
  plan: ReplayPlan,
  entry: ResolvedHttpDependency,
): Promise<ReplayUpstream | null> {
  const { dependency } = entry;
  const replay = dependency.replay;
  if (replay === undefined) return null;
  const builder = plan.recording.get(dependency.name);
  if (builder !== undefined) {
    const recording = await startRecordingUpstream({
      baseUrl: entry.baseUrl,
      builder,
      ignoreJsonFields: dependency.ignoreJsonFields,
      redact: replay.redact,
      ...(await mcpDialect(dependency.protocol)),
    });
    return { url: recording.url, port: null, close: () => recording.close() };
  }
  const cassette = plan.served.get(dependency.name);
  if (cassette === undefined) return null;
  const canaries = context.canaries ?? null;
  const port = new CassetteUpstream({
    dependency: dependency.name,
    cassette,
    match: replay.match,
    timing: replay.timing,
    ignoreJsonFields: dependency.ignoreJsonFields,
    liveBaseUrl: replay.onMismatch === "live" ? entry.baseUrl : null,
    ...(await mcpDialect(dependency.protocol)),
    carriesCanary: (target, body) => canaries?.carries(dependency.name, target, body) ?? false,
    onMismatch: mismatchReporter(context),
  });
  await port.ready();
  announceReplay(context, dependency.name, replay, cassette);
  return { url: entry.baseUrl, port, close: () => port.close() };
}

/** Records REPLAY_STARTED: the dependency is served from its cassette. */
export function announceReplay(
  context: StepContext,
  dependency: string,
  replay: ReplayConfig,
  cassette: Cassette,
): void {
  const interactions = cassette.interactions.length;
  context.sink.emit({ kind: "REPLAY_STARTED", dependency, cassette: shownCassette(replay), interactions });
}

/** The proxy options of a replayed dependency: its cassette, whose 599 is a `replay_mismatch`. */
export function replayProxyOptions(upstream: ReplayUpstream | null): {
  upstream?: UpstreamPort;
  replayMismatchStatus?: number;
} {
  if (upstream?.port == null) return {};
  return { upstream: upstream.port, replayMismatchStatus: REPLAY_MISMATCH_STATUS };
}

/** Writes every recorded cassette (a failed run's too) and says what was written. */
export async function writeRecordings(context: StepContext, plan: ReplayPlan): Promise<void> {
  const request = context.record;
  if (request === undefined) return;
  for (const dependency of replayedDependencies(context.scenario.dependencies)) {
    const builder = plan.recording.get(dependency.name);
    if (builder === undefined) continue;
    await builder.write(dependency.replay.cassette);
    request.written.push({
      dependency: dependency.name,
      cassette: shownCassette(dependency.replay),
      interactions: builder.recorded,
    });
  }
}
