import { join } from "node:path";
import type { EventSink, RunErrorReason } from "../events/types.js";
import type { ProxyOptions, RunningProxy } from "../proxy/server.js";
import { safeUrl } from "../scenario/safe-url.js";
import type { Scenario } from "../scenario/types.js";
import { ManagedProcess, type ProcessExit, SpawnError } from "./child-process.js";
import { readinessTarget, waitUntilReady } from "./readiness.js";

export interface StepContext {
  readonly scenario: Scenario;
  readonly runId: string;
  readonly runDir: string;
  readonly sink: EventSink;
  readonly interrupt: AbortSignal;
  readonly forceStop: AbortSignal;
  /** Starts loading what the rest of the run needs, while the dependency boots. */
  readonly preload: () => void;
  readonly startProxy: (options: ProxyOptions) => Promise<RunningProxy>;
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
}

const MAX_TIMER_MS = 2_147_483_647;

/** A setup failure already described safely; becomes RUN_ERROR with its reason. */
class SetupFailure extends Error {
  readonly reason: RunErrorReason;
  constructor(reason: RunErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** `10` or `0.5`: the scenario's seconds without trailing zeros. */
function seconds(value: number): string {
  return String(value);
}

function errorLabel(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) return code;
  return error instanceof Error ? error.constructor.name : "unknown error";
}

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
      throw new SetupFailure("PROXY_START_FAILED", `proxy could not start (${errorLabel(error)})`);
    }
    sink.emit({
      kind: "INJECTOR_STARTED",
      proxy_url: proxy.url,
      upstream_url: safeUrl(scenario.dependency.baseUrl),
    });
    if (context.interrupt.aborted) return;
    phase = "running the workload";
    await runWorkload(context, proxy.url);
  } catch (error) {
    if (error instanceof SetupFailure) {
      sink.emit({ kind: "RUN_ERROR", reason_code: error.reason, message: error.message });
    } else {
      sink.emit({
        kind: "RUN_ERROR",
        reason_code: "INTERNAL_ERROR",
        message: `internal error while ${phase} (${errorLabel(error)})`,
      });
    }
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

/** Spawns the managed dependency and waits for readiness; null when interrupted meanwhile. */
async function startDependency(context: StepContext): Promise<ManagedProcess | null> {
  const { scenario, sink, runDir } = context;
  const start = scenario.dependency.start;
  if (start === null) return null;
  let dependency: ManagedProcess;
  try {
    dependency = await ManagedProcess.start({
      spec: start,
      stdoutPath: join(runDir, "dependency.stdout.log"),
      stderrPath: join(runDir, "dependency.stderr.log"),
    });
  } catch (error) {
    if (error instanceof SpawnError) {
      throw new SetupFailure(
        "DEPENDENCY_START_FAILED",
        `dependency could not be started (spawn ${error.code})`,
      );
    }
    throw error;
  }
  const baseUrl = safeUrl(scenario.dependency.baseUrl);
  sink.emit({ kind: "DEPENDENCY_STARTED", base_url: baseUrl, pid: dependency.pid });
  context.preload();
  const stopWaiting = new AbortController();
  const onInterrupt = (): void => stopWaiting.abort();
  context.interrupt.addEventListener("abort", onInterrupt, { once: true });
  let exitedEarly: ProcessExit | null = null;
  void dependency.exited.then((exit) => {
    exitedEarly = exit;
    stopWaiting.abort();
  });
  try {
    const target = readinessTarget(scenario.dependency.baseUrl, start.readiness.path);
    const outcome = await waitUntilReady(target, start.readiness.timeoutSeconds * 1000, stopWaiting.signal);
    if (outcome.ready) {
      sink.emit({ kind: "DEPENDENCY_READY", base_url: baseUrl, readiness_path: start.readiness.path });
      return dependency;
    }
    const early = exitedEarly as ProcessExit | null;
    if (early !== null) {
      await dependency.stop(context.forceStop);
      sink.emit({
        kind: "RUN_ERROR",
        reason_code: "DEPENDENCY_START_FAILED",
        message: `dependency exited with code ${early.exitCode ?? "null"} before becoming ready`,
      });
      sink.emit({ kind: "DEPENDENCY_STOPPED", exit_code: early.exitCode });
      return null;
    }
    if (outcome.reason === "timeout") {
      const exit = await dependency.stop(context.forceStop);
      sink.emit({
        kind: "RUN_ERROR",
        reason_code: "DEPENDENCY_START_FAILED",
        message: `dependency did not become ready within ${seconds(start.readiness.timeoutSeconds)}s`,
      });
      sink.emit({ kind: "DEPENDENCY_STOPPED", exit_code: exit.exitCode });
      return null;
    }
    const exit = await dependency.stop(context.forceStop);
    sink.emit({ kind: "DEPENDENCY_STOPPED", exit_code: exit.exitCode });
    return null;
  } finally {
    context.interrupt.removeEventListener("abort", onInterrupt);
  }
}

/** Spawns the workload, waits for its exit, its time limit or an interruption, records the completion. */
async function runWorkload(context: StepContext, proxyUrl: string): Promise<void> {
  const { scenario, runDir } = context;
  const workloadSpec = scenario.workload;
  const extraEnv: Record<string, string> = {
    AGENTCHAOS_PROXY_URL: proxyUrl,
    AGENTCHAOS_RUN_ID: context.runId,
  };
  if (workloadSpec.proxyUrlEnv !== null) extraEnv[workloadSpec.proxyUrlEnv] = proxyUrl;
  let workload: ManagedProcess;
  try {
    workload = await ManagedProcess.start({
      spec: workloadSpec,
      extraEnv,
      stdoutPath: join(runDir, "stdout.log"),
      stderrPath: join(runDir, "stderr.log"),
      ...(context.onWorkloadLine === undefined ? {} : { onLine: context.onWorkloadLine }),
    });
  } catch (error) {
    if (error instanceof SpawnError) {
      throw new SetupFailure("WORKLOAD_SPAWN_FAILED", `workload could not be started (spawn ${error.code})`);
    }
    throw error;
  }
  try {
    await superviseWorkload(context, workload);
  } finally {
    // Whatever happened above, nothing the workload started may outlive the run.
    await workload.stop(context.forceStop);
  }
}

async function superviseWorkload(context: StepContext, workload: ManagedProcess): Promise<void> {
  const { scenario, sink } = context;
  const workloadSpec = scenario.workload;
  const startedAt = performance.now();
  sink.emit({
    kind: "WORKLOAD_STARTED",
    name: workloadSpec.name ?? workloadSpec.command[0],
    pid: workload.pid,
  });

  let exitedAt = 0;
  const exited = workload.exited.then((exit) => {
    exitedAt = performance.now();
    return { how: "exited" as const, exit };
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ how: "timeout" }>((resolve) => {
    // Node timers cap at 2^31-1 ms (about 24.8 days); longer limits are clamped to that.
    timer = setTimeout(
      () => resolve({ how: "timeout" }),
      Math.min(scenario.timeoutSeconds * 1000, MAX_TIMER_MS),
    );
  });
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<{ how: "interrupted" }>((resolve) => {
    onAbort = () => resolve({ how: "interrupted" });
    if (context.interrupt.aborted) onAbort();
    else context.interrupt.addEventListener("abort", onAbort, { once: true });
  });
  const first = await Promise.race([exited, timedOut, interrupted]);
  clearTimeout(timer);
  if (onAbort !== undefined) context.interrupt.removeEventListener("abort", onAbort);

  let exit: ProcessExit;
  if (first.how === "exited") {
    exit = await workload.reap(context.forceStop);
  } else {
    exit = await workload.stop(context.forceStop);
  }
  const ended = first.how === "exited" ? exitedAt : performance.now();
  sink.emit({
    kind: "WORKLOAD_COMPLETED",
    exit_code: exit.exitCode,
    timed_out: first.how === "timeout",
    interrupted: first.how === "interrupted",
    duration_ms: Math.max(0, Math.round(ended - startedAt)),
    error:
      first.how === "timeout"
        ? `process exceeded ${seconds(scenario.timeoutSeconds)} second timeout`
        : first.how === "interrupted"
          ? "process interrupted"
          : null,
  });
}
