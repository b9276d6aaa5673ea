import { type Captured, runInProcess } from "./in-process.js";

/**
 * Runs the CLI core in-process, as `runInProcess` does, with `env` added to the process
 * environment for the length of the call (a run's workload and servers inherit it, as they
 * would from the shell). Calls that set variables must not overlap.
 */
export async function runInProcessWithEnv(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Captured> {
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    return await runInProcess(argv, cwd);
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
