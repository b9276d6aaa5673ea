import { CanaryBook } from "../faults/corruption/canary-book.js";
import type { McpStdioHost } from "../mcp/stdio/host.js";
import { ProxyError } from "../proxy/errors.js";
import type { ProxyOptions, RunningProxy } from "../proxy/server.js";
import { safeUrl } from "../scenario/safe-url.js";
import type { CorruptionFault, HttpDependency, Scenario } from "../scenario/types.js";
import { maskCanariesInLogs } from "./canary-masks.js";
import {
  awaitReadiness,
  type ResolvedHttpDependency,
  resolveHttpDependencies,
  type StartedDependency,
  spawnDependency,
  stopDependencies,
} from "./dependencies.js";
import { wordingOf } from "./dependency-wording.js";
import { planRunReplay, type RunReplay } from "./replay-on-demand.js";
import type { ReplayUpstream } from "./replay-steps.js";
import { recordStepFailure, SetupFailure, type StepContext } from "./step-context.js";
import { runVerify, upstreamUrlVariable, verifyVariables } from "./verify.js";
import { runWorkload } from "./workload.js";
import { interpolateEnv, runVariables } from "./workload-env.js";

export type { StepContext } from "./step-context.js";

/**
 * The faults that act on one http dependency, in scenario order (all armable: see support.ts).
 * The fault registry is loaded only for a dependency that has faults (a scenario with faults
 * has loaded it already, to check them before anything started).
 */
async function faultsOf(scenario: Scenario, dependency: HttpDependency) {
  const own = scenario.faults.filter((fault) => fault.dependency === dependency.name);
  if (own.length === 0) return [];
  const { isArmable } = await import("../faults/registry.js");
  return own.filter(isArmable);
}

/**
 * Steps 4–8 of the run lifecycle, for a scenario of either schema in the internal model:
 * managed dependencies start in scenario order and become ready in parallel, one proxy per http
 * dependency records into the one recorder, then the workload runs with every URL variable.
 * Every failure becomes a RUN_ERROR; whatever happened, proxies are closed and dependencies
 * stopped in reverse order before returning.
 */
export async function runSteps(given: StepContext): Promise<void> {
  const context = withCanaries(given);
  const { scenario, sink } = context;
  const wording = wordingOf(scenario);
  const started: StartedDependency[] = [];
  const proxies: RunningProxy[] = [];
  const mcpHosts: McpStdioHost[] = [];
  const loopbacks: { close(): Promise<void> }[] = [];
  let replay: RunReplay | null = null;
  let phase = wording.startingPhase;
  try {
    replay = await planRunReplay(context);
    const cassettes = replay;
    const resolved = await resolveHttpDependencies(scenario);
    for (const entry of resolved) {
      if (context.interrupt.aborted) return;
      // A dependency served from its cassette runs no process.
      if (cassettes.isServed(entry.dependency.name)) continue;
      await spawnDependency(context, entry, started);
    }
    if (started.length > 0) {
      context.preload();
      if (!(await awaitReadiness(context, started))) return;
    }
    phase = wording.proxyPhase;
    const proxyUrls = new Map<string, string>();
    for (const entry of resolved) {
      const loopback = await cassettes.startUpstream(context, entry);
      if (loopback !== null) loopbacks.push(loopback);
      const proxy = await startDependencyProxy(context, entry, loopback, cassettes);
      proxies.push(proxy);
      proxyUrls.set(entry.dependency.name, proxy.url);
      sink.emit({
        kind: "INJECTOR_STARTED",
        dependency: entry.dependency.name,
        proxy_url: proxy.url,
        upstream_url: safeUrl(entry.baseUrl),
      });
    }
    const mcpVariables = usesMcpStdio(scenario)
      ? await (await import("./mcp-channels.js")).startStdioHosts(context, mcpHosts, cassettes.plan)
      : {};
    if (context.interrupt.aborted) return;
    phase = "running the workload";
    const variables = runVariables(scenario, context.runId, proxyUrls, mcpVariables);
    const env = interpolateEnv(scenario.workload.env, variables);
    const ended = await runWorkload(context, variables, env);
    const verify = scenario.verify ?? null;
    if (verify !== null && ended === "exited" && !context.interrupt.aborted) {
      phase = "running the verify command";
      const launch = { cwd: scenario.workload.cwd, env, extraEnv: variables };
      // A dependency served from its cassette has no upstream of its own to ask.
      const live = resolved.filter((entry) => !cassettes.isServed(entry.dependency.name));
      const served = resolved.filter((entry) => !live.includes(entry));
      const withheld = served.map((entry) => upstreamUrlVariable(entry.dependency.name));
      await runVerify(context, verify, launch, verifyVariables(context.runDir, live), withheld);
    }
  } catch (error) {
    recordStepFailure(sink, error, phase);
  } finally {
    for (const host of mcpHosts.reverse()) await host.close().catch(() => undefined);
    for (const proxy of proxies.reverse()) await proxy.close().catch(() => undefined);
    for (const loopback of loopbacks.reverse()) await loopback.close().catch(() => undefined);
    await stopDependencies(context, started);
    if (context.canaries != null) await maskCanariesInLogs(context.runDir, context.canaries);
    if (replay !== null)
      await replay
        .writeRecordings(context)
        .catch((error: unknown) => recordStepFailure(sink, error, "writing the cassettes"));
  }
}

/** The context with the run's canaries, when the scenario has a corruption fault. */
function withCanaries(context: StepContext): StepContext {
  const corruption = context.scenario.faults.filter(
    (fault): fault is CorruptionFault => fault.type === "http_corrupt" || fault.type === "mcp_corrupt_result",
  );
  if (corruption.length === 0) return context;
  return { ...context, canaries: new CanaryBook(context.runId, corruption, context.sink) };
}

/** Whether the scenario has an `mcp_stdio` dependency (the MCP modules load only then). */
function usesMcpStdio(scenario: Scenario): boolean {
  return scenario.dependencies.some((dependency) => dependency.type === "mcp_stdio");
}

/** What the proxy of one http dependency is given. */
async function proxyOptions(
  context: StepContext,
  entry: ResolvedHttpDependency,
  replayed: ReplayUpstream | null,
  replay: RunReplay,
): Promise<ProxyOptions> {
  const upstreamBaseUrl = replayed?.url ?? entry.baseUrl;
  const { scenario, sink } = context;
  const { dependency } = entry;
  const faults = await faultsOf(scenario, dependency);
  return {
    upstreamBaseUrl,
    faults,
    sink,
    triggerClock: context.triggerClock,
    dependency: dependency.name,
    countStreamEvents: dependency.countStreamEvents ?? true,
    ignoreJsonFields: dependency.ignoreJsonFields,
    canaries: context.canaries ?? null,
    ...replay.proxyOptions(replayed),
  };
}

/** `replayed`: the recording upstream or the cassette of a replayed dependency (docs/replay.md). */
async function startDependencyProxy(
  context: StepContext,
  entry: ResolvedHttpDependency,
  replayed: ReplayUpstream | null,
  replay: RunReplay,
): Promise<RunningProxy> {
  const { dependency } = entry;
  if (dependency.protocol === "mcp") {
    const { startMcpProxy } = await import("./mcp-channels.js");
    return startMcpProxy(context, dependency, replayed?.url ?? entry.baseUrl, replay.proxyOptions(replayed));
  }
  try {
    return await context.startProxy(await proxyOptions(context, entry, replayed, replay));
  } catch (error) {
    // A ProxyError's message is written to be safe (phase and errno code only).
    const safeMessage = error instanceof ProxyError ? error.message : null;
    throw new SetupFailure(
      "PROXY_START_FAILED",
      wordingOf(context.scenario).proxyFailed(dependency.name, error, safeMessage),
    );
  }
}
