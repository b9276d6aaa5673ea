import { isArmable } from "../faults/registry.js";
import type { McpStdioHost } from "../mcp/stdio/host.js";
import { ProxyError } from "../proxy/errors.js";
import type { RunningProxy } from "../proxy/server.js";
import { safeUrl } from "../scenario/safe-url.js";
import type { HttpDependencyV2, ScenarioV2 } from "../scenario/types-v2.js";
import {
  awaitReadiness,
  type ResolvedHttpDependency,
  resolveHttpDependencies,
  type StartedDependency,
  spawnDependency,
  stopDependencies,
} from "./dependencies-v2.js";
import { errorLabel } from "./error-label.js";
import { startMcpProxy, startStdioHosts } from "./mcp-v2.js";
import { recordStepFailure, SetupFailure, type StepContext } from "./step-context.js";
import { runWorkload } from "./workload.js";
import { interpolateEnv, runVariables } from "./workload-env.js";

/** The faults that act on one http dependency, in scenario order (all armable: see support.ts). */
function faultsOf(scenario: ScenarioV2, dependency: HttpDependencyV2) {
  return scenario.faults.filter((fault) => fault.dependency === dependency.name).filter(isArmable);
}

/**
 * The schema-2 run (v2/scenario.md): managed dependencies start in scenario order and become
 * ready in parallel, one proxy per http dependency records into the one recorder, then the
 * workload runs with every URL variable. Every failure becomes a RUN_ERROR; whatever happened,
 * proxies are closed and dependencies stopped in reverse order before returning.
 */
export async function runStepsV2(context: StepContext<ScenarioV2>): Promise<void> {
  const { scenario, sink } = context;
  const started: StartedDependency[] = [];
  const proxies: RunningProxy[] = [];
  const mcpHosts: McpStdioHost[] = [];
  let phase = "starting the dependencies";
  try {
    const resolved = await resolveHttpDependencies(scenario);
    for (const entry of resolved) {
      if (context.interrupt.aborted) return;
      await spawnDependency(context, entry, started);
    }
    if (started.length > 0) {
      context.preload();
      if (!(await awaitReadiness(context, started))) return;
    }
    phase = "starting the proxies";
    const proxyUrls = new Map<string, string>();
    for (const entry of resolved) {
      const proxy = await startDependencyProxy(context, entry);
      proxies.push(proxy);
      proxyUrls.set(entry.dependency.name, proxy.url);
      sink.emit({
        kind: "INJECTOR_STARTED",
        dependency: entry.dependency.name,
        proxy_url: proxy.url,
        upstream_url: safeUrl(entry.baseUrl),
      });
    }
    const mcpVariables = await startStdioHosts(context, mcpHosts);
    if (context.interrupt.aborted) return;
    phase = "running the workload";
    const variables = runVariables(scenario, context.runId, proxyUrls, mcpVariables);
    await runWorkload(context, variables, interpolateEnv(scenario.workload.env, variables));
  } catch (error) {
    recordStepFailure(sink, error, phase);
  } finally {
    for (const host of mcpHosts.reverse()) await host.close().catch(() => undefined);
    for (const proxy of proxies.reverse()) await proxy.close().catch(() => undefined);
    await stopDependencies(context, started);
  }
}

async function startDependencyProxy(
  context: StepContext<ScenarioV2>,
  entry: ResolvedHttpDependency,
): Promise<RunningProxy> {
  const { dependency } = entry;
  if (dependency.protocol === "mcp") return startMcpProxy(context, dependency, entry.baseUrl);
  try {
    return await context.startProxy({
      upstreamBaseUrl: entry.baseUrl,
      faults: faultsOf(context.scenario, dependency),
      sink: context.sink,
      dependency: dependency.name,
      ignoreJsonFields: dependency.ignoreJsonFields,
    });
  } catch (error) {
    const message =
      error instanceof ProxyError
        ? `${error.message} (dependency ${dependency.name})`
        : `proxy of dependency ${dependency.name} could not start (${errorLabel(error)})`;
    throw new SetupFailure("PROXY_START_FAILED", message);
  }
}
