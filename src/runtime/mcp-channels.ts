import { startMcpHttpProxy } from "../mcp/http/proxy.js";
import { type McpStdioHost, startMcpStdioHost } from "../mcp/stdio/host.js";
import { ProxyError } from "../proxy/errors.js";
import type { UpstreamPort } from "../proxy/forward.js";
import type { RunningProxy } from "../proxy/server.js";
import { eventsSchemaOf } from "../scenario/additions.js";
import type { HttpDependency, Scenario } from "../scenario/types.js";
import type { ReplayPlan } from "./replay-steps.js";
import { stdioReplay } from "./stdio-replay.js";
import { SetupFailure, type StepContext } from "./step-context.js";

function faultsOf(scenario: Scenario, name: string) {
  return scenario.faults.filter((fault) => fault.dependency === name);
}

/** Whether the run writes the agent's cancellations (MCP_CANCELLED exists only in events schema 3). */
function recordsCancellations(scenario: Scenario): boolean {
  return eventsSchemaOf(scenario) === 3;
}

function setupFailure(error: unknown, name: string): SetupFailure {
  const detail = error instanceof ProxyError ? error.message : "it could not start";
  return new SetupFailure("PROXY_START_FAILED", `${detail} (dependency ${name})`);
}

/** The proxy of a `protocol: mcp` http dependency (docs/mcp.md, Streamable HTTP). */
export async function startMcpProxy(
  context: StepContext,
  dependency: HttpDependency,
  upstreamBaseUrl: string,
  replayed: { upstream?: UpstreamPort; replayMismatchStatus?: number } = {},
): Promise<RunningProxy> {
  try {
    return await startMcpHttpProxy({
      ...replayed,
      upstreamBaseUrl,
      dependency: dependency.name,
      faults: faultsOf(context.scenario, dependency.name),
      sink: context.sink,
      triggerClock: context.triggerClock,
      recordsCancellations: recordsCancellations(context.scenario),
      canaries: context.canaries ?? null,
    });
  } catch (error) {
    throw setupFailure(error, dependency.name);
  }
}

/**
 * Starts the channel of every `mcp_stdio` dependency, in scenario order, recording
 * INJECTOR_STARTED (no URLs) for each; `hosts` receives each one at once so that cleanup covers
 * it. Returns the workload variables they add.
 */
export async function startStdioHosts(
  context: StepContext,
  hosts: McpStdioHost[],
  plan: ReplayPlan | null = null,
): Promise<Record<string, string>> {
  const variables: Record<string, string> = {};
  for (const dependency of context.scenario.dependencies) {
    if (dependency.type !== "mcp_stdio") continue;
    let host: McpStdioHost;
    try {
      host = await startMcpStdioHost({
        dependency,
        faults: faultsOf(context.scenario, dependency.name),
        sink: context.sink,
        canaries: context.canaries ?? null,
        triggerClock: context.triggerClock,
        runDir: context.runDir,
        runId: context.runId,
        interrupt: context.interrupt,
        recordsCancellations: recordsCancellations(context.scenario),
        replay: stdioReplay(context, plan, dependency),
      });
    } catch (error) {
      throw setupFailure(error, dependency.name);
    }
    hosts.push(host);
    Object.assign(variables, host.env);
    context.sink.emit({
      kind: "INJECTOR_STARTED",
      dependency: dependency.name,
      proxy_url: null,
      upstream_url: null,
    });
  }
  return variables;
}
