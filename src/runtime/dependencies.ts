import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { PORT_PLACEHOLDER } from "../scenario/dependencies.js";
import { safePath, safeUrl } from "../scenario/safe-url.js";
import type { DependencyStart, HttpDependency, Scenario } from "../scenario/types.js";
import type { ManagedProcess, ProcessExit } from "./child-process.js";
import { wordingOf } from "./dependency-wording.js";
import { watchUnexpectedExit } from "./exit-watcher.js";
import { freeLoopbackPort } from "./free-port.js";
import { portInUse } from "./port-check.js";
import { type ReadinessLog, ReadinessWake, readinessTarget, waitUntilReady } from "./readiness.js";
import type { ReadinessFailure } from "./readiness-failure.js";
import { startRunProcess } from "./spawn-failure.js";
import { SetupFailure, type StepContext, seconds } from "./step-context.js";

/** An http dependency with `{port}` resolved for this run. */
export interface ResolvedHttpDependency {
  readonly dependency: HttpDependency;
  /** The real base URL (may hold user info: never print it; use `safeUrl`). */
  readonly baseUrl: string;
  readonly start: DependencyStart | null;
}

/** A managed dependency that was spawned, and how it ended if it already has. */
export interface StartedDependency {
  readonly resolved: ResolvedHttpDependency;
  readonly process: ManagedProcess;
  /** `Date.now()` when it was spawned. */
  readonly startedAt: number;
  exit: ProcessExit | null;
  /** `Date.now()` when it ended. */
  endedAt: number | null;
  /** Nudged by the process's output: readiness polls again at once (a server says it listens). */
  readonly wake: ReadinessWake;
}

/** Replaces `{port}` in base_url, start.command items and start.env values (docs/scenario.md). */
export function resolvePort(dependency: HttpDependency, port: number | null): ResolvedHttpDependency {
  if (port === null) return { dependency, baseUrl: dependency.baseUrl, start: dependency.start };
  const fill = (text: string): string => text.replaceAll(PORT_PLACEHOLDER, String(port));
  const start = dependency.start;
  return {
    dependency,
    baseUrl: fill(dependency.baseUrl),
    start:
      start === null
        ? null
        : {
            ...start,
            command: start.command.map(fill) as unknown as DependencyStart["command"],
            env: Object.fromEntries(Object.entries(start.env).map(([key, value]) => [key, fill(value)])),
          },
  };
}

/** Picks the ports of the scenario's http dependencies (fresh ones for `{port}`). */
export async function resolveHttpDependencies(scenario: Scenario): Promise<ResolvedHttpDependency[]> {
  const resolved: ResolvedHttpDependency[] = [];
  for (const dependency of scenario.dependencies) {
    if (dependency.type !== "http") continue;
    resolved.push(resolvePort(dependency, dependency.usesPortPlaceholder ? await freeLoopbackPort() : null));
  }
  return resolved;
}

/**
 * Spawns one managed dependency (logs under `dependencies/`), records DEPENDENCY_STARTED and
 * adds it to `started` at once, so that cleanup covers it whatever happens next.
 */
export async function spawnDependency(
  context: StepContext,
  resolved: ResolvedHttpDependency,
  started: StartedDependency[],
): Promise<void> {
  const start = resolved.start;
  if (start === null) return;
  const name = resolved.dependency.name;
  const wording = wordingOf(context.scenario);
  if (!resolved.dependency.usesPortPlaceholder) {
    // A foreign listener on a fixed port would answer readiness and every request instead.
    const busy = await portInUse(resolved.baseUrl);
    if (busy !== null) {
      throw new SetupFailure("DEPENDENCY_START_FAILED", wording.portBusy(name, busy));
    }
  }
  const folder = join(context.runDir, wording.logFolder);
  if (wording.logFolder !== "") await mkdir(folder, { recursive: true });
  const wake = new ReadinessWake();
  const process = await startRunProcess(
    context,
    {
      spec: start,
      onOutput: () => wake.nudge(),
      stdoutPath: join(folder, wording.logFile(name, "stdout")),
      stderrPath: join(folder, wording.logFile(name, "stderr")),
    },
    {
      reason: "DEPENDENCY_START_FAILED",
      message: (errno, detail) => wording.spawnFailed(name, errno, detail),
      logLabel: (file) => (wording.logFolder === "" ? file : `${wording.logFolder}/${file}`),
    },
  );
  const entry: StartedDependency = {
    resolved,
    process,
    startedAt: Date.now(),
    exit: null,
    endedAt: null,
    wake,
  };
  started.push(entry);
  void process.exited.then((exit) => {
    entry.exit = exit;
    entry.endedAt = Date.now();
  });
  context.sink.emit({
    kind: "DEPENDENCY_STARTED",
    dependency: name,
    base_url: safeUrl(resolved.baseUrl),
    pid: process.pid,
  });
}

/**
 * Waits for every started dependency's readiness at once. The first failure (a time limit, an
 * early exit) stops the wait for the others and becomes a SetupFailure naming the dependency;
 * an interruption just ends the wait (false).
 */
export async function awaitReadiness(
  context: StepContext,
  started: readonly StartedDependency[],
): Promise<boolean> {
  const wording = wordingOf(context.scenario);
  const stopAll = new AbortController();
  const onInterrupt = (): void => stopAll.abort();
  context.interrupt.addEventListener("abort", onInterrupt, { once: true });
  let failure: SetupFailure | null = null;
  const fail = (message: string): void => {
    failure ??= new SetupFailure("DEPENDENCY_START_FAILED", message);
    stopAll.abort();
  };
  try {
    await Promise.all(
      started.map(async (entry) => {
        const { resolved, process } = entry;
        const start = resolved.start as DependencyStart;
        const name = resolved.dependency.name;
        const stop = new AbortController();
        const abort = (): void => stop.abort();
        stopAll.signal.addEventListener("abort", abort, { once: true });
        void process.exited.then(() => stop.abort());
        const target = readinessTarget(resolved.baseUrl, start.readiness.path);
        const limitMs = start.readiness.timeoutSeconds * 1000;
        const log: ReadinessLog = { polls: 0, last: null };
        const outcome = await waitUntilReady(target, limitMs, stop.signal, log, entry.wake);
        stopAll.signal.removeEventListener("abort", abort);
        if (outcome.ready) {
          context.sink.emit({
            kind: "DEPENDENCY_READY",
            dependency: name,
            base_url: safeUrl(resolved.baseUrl),
            readiness_path: safePath(start.readiness.path),
          });
          watchUnexpectedExit(process, (exit) =>
            context.abortRun?.fail("DEPENDENCY_START_FAILED", wording.exitedDuringRun(name, exit.exitCode)),
          );
          return;
        }
        const failure: ReadinessFailure = {
          dependency: name,
          basePath: new URL(resolved.baseUrl).pathname,
          readinessPath: start.readiness.path,
          log,
        };
        if (entry.exit !== null || (outcome.reason === "aborted" && !stopAll.signal.aborted)) {
          const exit = entry.exit ?? (await process.exited);
          fail(
            wording.endedBeforeReady(failure, exit.exitCode, (entry.endedAt ?? Date.now()) - entry.startedAt),
          );
          return;
        }
        if (outcome.reason === "timeout") {
          fail(wording.notReadyInTime(failure, seconds(start.readiness.timeoutSeconds)));
        }
      }),
    );
  } finally {
    context.interrupt.removeEventListener("abort", onInterrupt);
  }
  if (failure !== null) throw failure;
  return !context.interrupt.aborted;
}

/** Stops every started dependency in reverse start order, recording DEPENDENCY_STOPPED for each. */
export async function stopDependencies(
  context: StepContext,
  started: readonly StartedDependency[],
): Promise<void> {
  for (const entry of [...started].reverse()) {
    const exit = await entry.process.stop(context.forceStop);
    context.sink.emit({
      kind: "DEPENDENCY_STOPPED",
      dependency: entry.resolved.dependency.name,
      exit_code: exit.exitCode,
    });
  }
}
