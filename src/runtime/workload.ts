import { join } from "node:path";
import type { AgentChaosEvent } from "../events/types.js";
import { ManagedProcess, type ProcessExit, SpawnError } from "./child-process.js";
import { wordingOf } from "./dependency-wording.js";
import { HangWatch, systemTimer } from "./hang-watch.js";
import { spawnFailureDetail } from "./spawn-failure.js";
import { SetupFailure, type StepContext, seconds } from "./step-context.js";

// Node timers cap at 2^31-1 ms (about 24.8 days); longer workload limits are clamped to that.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Spawns the workload with `extraEnv` laid over its environment, waits for its exit, its time
 * limit or an interruption, records the completion. `env` replaces the scenario's own workload
 * env when given (schema 2 interpolates it first).
 */
export async function runWorkload(
  context: StepContext,
  extraEnv: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>> = context.scenario.workload.env,
): Promise<WorkloadEnd> {
  const { scenario, runDir } = context;
  const workloadSpec = { ...scenario.workload, env };
  let workload: ManagedProcess;
  try {
    workload = await ManagedProcess.start({
      spec: workloadSpec,
      extraEnv,
      stdoutPath: join(runDir, "stdout.log"),
      stderrPath: join(runDir, "stderr.log"),
      ...lineWatchers(context),
      onOutputError: (file, code) => context.abortRun?.ioFailure(file, code),
    });
  } catch (error) {
    if (error instanceof SpawnError) {
      const detail = await spawnFailureDetail(workloadSpec, error.errno);
      const message = wordingOf(scenario).workloadSpawnFailed(error.errno, detail);
      throw new SetupFailure("WORKLOAD_SPAWN_FAILED", message);
    }
    throw error;
  }
  try {
    return await superviseWorkload(context, workload);
  } finally {
    // Whatever happened above, nothing the workload started may outlive the run.
    await workload.stop(context.forceStop);
  }
}

/** Who sees each line of workload output: the terminal echo, and the canaries watching stdout. */
function lineWatchers(context: StepContext): { onLine?: (stream: "out" | "err", line: string) => void } {
  const { onWorkloadLine: echo, canaries } = context;
  if (canaries === undefined || canaries === null) return echo === undefined ? {} : { onLine: echo };
  return {
    onLine(stream, line) {
      if (stream === "out") canaries.scanStdout(line);
      echo?.(stream, canaries.mask(line));
    },
  };
}

/** How the workload's run ended: by itself, at its time limit, stopped as hung (enforced `fail_fast`), or by an interruption. */
export type WorkloadEnd = "exited" | "timeout" | "interrupted" | "hung";

async function superviseWorkload(context: StepContext, workload: ManagedProcess): Promise<WorkloadEnd> {
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
  const watch = hangWatch(context);
  const hung = watch === null ? null : watch.hung.then(() => ({ how: "hung" as const }));
  const first = await Promise.race([exited, timedOut, interrupted, ...(hung === null ? [] : [hung])]);
  clearTimeout(timer);
  watch?.stop();
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
    timed_out: first.how === "timeout" || first.how === "hung",
    interrupted: first.how === "interrupted",
    duration_ms: Math.max(0, Math.round(ended - startedAt)),
    error:
      first.how === "timeout"
        ? `process exceeded ${seconds(scenario.timeoutSeconds)} second timeout`
        : first.how === "hung"
          ? `process stopped: silent for more than ${scenario.checks.fail_fast.maxMs} ms after a failure (check fail_fast)`
          : first.how === "interrupted"
            ? "process interrupted"
            : null,
  });
  return first.how;
}

/** With `fail_fast` enforced, what stops a hung workload as soon as a finding is certain. */
function hangWatch(context: StepContext): HangWatch | null {
  const { fail_fast: failFast } = context.scenario.checks;
  const recorded = context.recorded;
  if (failFast.mode !== "enforce" || recorded === undefined) return null;
  const watch = new HangWatch(failFast.maxMs, { now: () => recorded.elapsedMs(), schedule: systemTimer });
  // `fail_fast` is a check of schema 2 and later: its runs record the internal events as they are.
  recorded.onEvent((event) => watch.take(event as AgentChaosEvent));
  return watch;
}
