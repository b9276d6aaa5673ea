import { ProxyError } from "../proxy/errors.js";
import type { RunningProxy } from "../proxy/server.js";
import { safeUrl } from "../scenario/safe-url.js";
import type { ManagedProcess } from "./child-process.js";
import { startDependency } from "./dependency.js";
import { errorLabel } from "./error-label.js";
import { recordStepFailure, SetupFailure, type StepContext } from "./step-context.js";
import { runWorkload, workloadEnvV1 } from "./workload.js";

export type { StepContext } from "./step-context.js";

/**
 * Steps 4–8 of the run lifecycle. Every failure becomes a RUN_ERROR; whatever happened, the
 * proxy is stopped and every process is stopped (and DEPENDENCY_STOPPED recorded) before returning.
 */
export async function runSteps(context: StepContext): Promise<void> {
  const { scenario, sink } = context;
  let dependency: ManagedProcess | null = null;
  let proxy: RunningProxy | null = null;
  let phase = "starting the dependency";
  try {
    if (scenario.dependency.start !== null) {
      dependency = await startDependency(context);
      if (dependency === null) return;
    }
    phase = "starting the proxy";
    try {
      proxy = await context.startProxy({
        upstreamBaseUrl: scenario.dependency.baseUrl,
        fault: scenario.fault,
        sink,
      });
    } catch (error) {
      // A ProxyError's message is written to be safe (phase and errno code only).
      const message =
        error instanceof ProxyError ? error.message : `proxy could not start (${errorLabel(error)})`;
      throw new SetupFailure("PROXY_START_FAILED", message);
    }
    sink.emit({
      kind: "INJECTOR_STARTED",
      proxy_url: proxy.url,
      upstream_url: safeUrl(scenario.dependency.baseUrl),
    });
    if (context.interrupt.aborted) return;
    phase = "running the workload";
    await runWorkload(context, workloadEnvV1(context, proxy.url));
  } catch (error) {
    recordStepFailure(sink, error, phase);
  } finally {
    await cleanUp(context, dependency, proxy);
  }
}

async function cleanUp(
  context: StepContext,
  dependency: ManagedProcess | null,
  proxy: RunningProxy | null,
): Promise<void> {
  if (proxy !== null) await proxy.close().catch(() => undefined);
  if (dependency !== null) {
    const exit = await dependency.stop(context.forceStop);
    context.sink.emit({ kind: "DEPENDENCY_STOPPED", exit_code: exit.exitCode });
  }
}
