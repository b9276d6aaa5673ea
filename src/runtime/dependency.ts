import { join } from "node:path";
import { safePath, safeUrl } from "../scenario/safe-url.js";
import { ManagedProcess, type ProcessExit, SpawnError } from "./child-process.js";
import { errorLabel } from "./error-label.js";
import { watchUnexpectedExit } from "./exit-watcher.js";
import { portInUse } from "./port-check.js";
import { readinessTarget, waitUntilReady } from "./readiness.js";
import { SetupFailure, type StepContext, seconds } from "./step-context.js";

/** Spawns the managed dependency and waits for readiness; null when interrupted meanwhile. */
export async function startDependency(context: StepContext): Promise<ManagedProcess | null> {
  const { scenario, sink, runDir } = context;
  const start = scenario.dependency.start;
  if (start === null) return null;
  const busy = await portInUse(scenario.dependency.baseUrl);
  if (busy !== null) {
    throw new SetupFailure(
      "DEPENDENCY_START_FAILED",
      `dependency port ${busy} is already in use by another process`,
    );
  }
  let dependency: ManagedProcess;
  try {
    dependency = await ManagedProcess.start({
      spec: start,
      stdoutPath: join(runDir, "dependency.stdout.log"),
      stderrPath: join(runDir, "dependency.stderr.log"),
      onOutputError: (file, code) => context.abortRun?.ioFailure(file, code),
    });
  } catch (error) {
    if (error instanceof SpawnError) {
      throw new SetupFailure(
        "DEPENDENCY_START_FAILED",
        `dependency could not be started (spawn ${error.errno})`,
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
      sink.emit({
        kind: "DEPENDENCY_READY",
        base_url: baseUrl,
        readiness_path: safePath(start.readiness.path),
      });
      watchUnexpectedExit(dependency, (exit) =>
        context.abortRun?.fail(
          "DEPENDENCY_START_FAILED",
          `dependency exited with code ${exit.exitCode ?? "null"} during the run`,
        ),
      );
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
  } catch (error) {
    // Whatever went wrong after the spawn, the dependency is stopped here: nobody else holds it.
    sink.emit({
      kind: "RUN_ERROR",
      reason_code: "INTERNAL_ERROR",
      message: `internal error while starting the dependency (${errorLabel(error)})`,
    });
    const exit = await dependency.stop(context.forceStop);
    sink.emit({ kind: "DEPENDENCY_STOPPED", exit_code: exit.exitCode });
    return null;
  } finally {
    context.interrupt.removeEventListener("abort", onInterrupt);
  }
}
