import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { VerifySpec } from "../scenario/types.js";
import type { ResolvedHttpDependency } from "./dependencies.js";
import { firstEnd } from "./process-end.js";
import { createArtifact } from "./run-abort.js";
import { startRunProcess } from "./spawn-failure.js";
import type { StepContext } from "./step-context.js";

export const VERIFY_STDOUT = "verify.stdout.log";
export const VERIFY_STDERR = "verify.stderr.log";

/** `AGENTCHAOS_<NAME>_UPSTREAM_URL`: a dependency's own URL, for the verify command only. */
export function upstreamUrlVariable(name: string): string {
  return `AGENTCHAOS_${name.toUpperCase()}_UPSTREAM_URL`;
}

/**
 * What the verify command gets on top of the workload's environment (docs/scenario.md, verify):
 * each http dependency's own URL (the proxy is bypassed, so nothing it asks is recorded) and
 * the path of the workload's complete standard output.
 */
export function verifyVariables(
  runDir: string,
  dependencies: readonly ResolvedHttpDependency[],
): Record<string, string> {
  const variables: Record<string, string> = { AGENTCHAOS_WORKLOAD_STDOUT: join(runDir, "stdout.log") };
  for (const { dependency, baseUrl } of dependencies)
    variables[upstreamUrlVariable(dependency.name)] = baseUrl;
  return variables;
}

/** How the workload's own process was started: its spec's cwd and env, and the run variables. */
export interface WorkloadLaunch {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly extraEnv: Readonly<Record<string, string>>;
}

/**
 * Runs the verify command once (after a workload that ended by itself, before any dependency
 * stops) and records `VERIFY_COMPLETED`. `withheldEnv`: variables it does not inherit from the
 * parent environment (the upstream URL of a dependency served from its cassette). Its output goes to verify.stdout.log and
 * verify.stderr.log. A command that cannot be started is a setup failure; an interruption stops
 * it (its whole process group) and records nothing. The process never outlives this call.
 */
export async function runVerify(
  context: StepContext,
  spec: VerifySpec,
  launch: WorkloadLaunch,
  extraEnv: Readonly<Record<string, string>>,
  withheldEnv: readonly string[] = [],
): Promise<void> {
  const { runDir, sink } = context;
  const stdoutPath = join(runDir, VERIFY_STDOUT);
  const stderrPath = join(runDir, VERIFY_STDERR);
  await createArtifact(runDir, VERIFY_STDOUT, () => writeFile(stdoutPath, ""));
  await createArtifact(runDir, VERIFY_STDERR, () => writeFile(stderrPath, ""));
  const command = { command: spec.command, cwd: launch.cwd, env: launch.env };
  const verify = await startRunProcess(
    context,
    { spec: command, extraEnv: { ...launch.extraEnv, ...extraEnv }, withheldEnv, stdoutPath, stderrPath },
    {
      reason: "WORKLOAD_SPAWN_FAILED",
      message: (_errno, detail) => `verify command could not be started: ${detail}`,
    },
  );
  try {
    const startedAt = performance.now();
    const ended = await firstEnd(verify.exited, spec.timeoutSeconds, context.interrupt);
    if (ended === "interrupted") return;
    // A verify that outran its limit is stopped first; its exit code says nothing then.
    const exit =
      ended === "timeout" ? await verify.stop(context.forceStop) : await verify.reap(context.forceStop);
    sink.emit({
      kind: "VERIFY_COMPLETED",
      exit_code: ended === "timeout" ? null : exit.exitCode,
      timed_out: ended === "timeout",
      duration_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    });
  } finally {
    await verify.stop(context.forceStop);
  }
}
