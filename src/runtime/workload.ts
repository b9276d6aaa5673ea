import { join } from "node:path";
import type { AgentChaosEvent } from "../events/types.js";
import type { ManagedProcess } from "./child-process.js";
import { wordingOf } from "./dependency-wording.js";
import { HangWatch, systemTimer } from "./hang-watch.js";
import { firstEnd, type ProcessEnd } from "./process-end.js";
import { startRunProcess } from "./spawn-failure.js";
import { type StepContext, seconds } from "./step-context.js";

/**
 * Spawns the workload with `extraEnv` laid over its environment, waits for its exit, its time
 * limit or an interruption, records the completion. `env` replaces the scenario's own workload
 * env when given (schema 2 interpolates it first).
 */
export async function runWorkload(
  context: StepContext,
  extraEnv: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>> = context.scenario.workload.env,
): Promise<ProcessEnd> {
  const { scenario, runDir } = context;
  const workloadSpec = { ...scenario.workload, env };
  const workload = await startRunProcess(
    context,
    {
      spec: workloadSpec,
      extraEnv,
      stdoutPath: join(runDir, "stdout.log"),
      stderrPath: join(runDir, "stderr.log"),
      ...lineWatchers(context),
    },
    { reason: "WORKLOAD_SPAWN_FAILED", message: wordingOf(scenario).workloadSpawnFailed },
  );
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

async function superviseWorkload(context: StepContext, workload: ManagedProcess): Promise<ProcessEnd> {
  const { scenario, sink } = context;
  const workloadSpec = scenario.workload;
  const startedAt = performance.now();
  sink.emit({
    kind: "WORKLOAD_STARTED",
    name: workloadSpec.name ?? workloadSpec.command[0],
    pid: workload.pid,
  });

  let exitedAt = 0;
  const exited = workload.exited.then(() => {
    exitedAt = performance.now();
  });
  const watch = hangWatch(context);
  const how = await firstEnd(exited, scenario.timeoutSeconds, context.interrupt, watch?.hung ?? null);
  watch?.stop();

  const exit =
    how === "exited" ? await workload.reap(context.forceStop) : await workload.stop(context.forceStop);
  const ended = how === "exited" ? exitedAt : performance.now();
  sink.emit({
    kind: "WORKLOAD_COMPLETED",
    exit_code: exit.exitCode,
    timed_out: how === "timeout" || how === "hung",
    interrupted: how === "interrupted",
    duration_ms: Math.max(0, Math.round(ended - startedAt)),
    error:
      how === "timeout"
        ? `process exceeded ${seconds(scenario.timeoutSeconds)} second timeout`
        : how === "hung"
          ? `process stopped: silent for more than ${scenario.checks.fail_fast.maxMs} ms after a failure (check fail_fast)`
          : how === "interrupted"
            ? "process interrupted"
            : null,
  });
  return how;
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
