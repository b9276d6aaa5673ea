import type { CliResult } from "./cli.js";
import { ROOT } from "./cli.js";
import { runInProcess } from "./in-process.js";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";

let runCode: Promise<unknown> | undefined;

/**
 * Loads what a run imports on its way, once per test file, before its first run: the executable
 * has its code at hand, but here a module's first load takes the test process's time, and a run
 * that paid it while its dependencies start would see its own deadlines come sooner.
 */
function loadRunCode(): Promise<unknown> {
  runCode ??= Promise.all([
    import("../../src/cli/commands/run.js"),
    import("../../src/runtime/experiment.js"),
    import("../../src/runtime/run-modules.js").then(({ loadRunModules }) => loadRunModules(true)),
    import("../../src/faults/registry.js"),
  ]);
  return runCode;
}

/**
 * Runs a CLI command in this process, as `runBuiltCli` would run it in a process of its own, and
 * answers in the same shape: for tests about what a command writes and prints rather than about
 * the executable, it spares each call a Node start and the loading of the whole CLI. A `run` of a
 * scenario with fixed ports holds those ports' locks first, as `runBuiltCli` does.
 */
export async function runCliHere(args: readonly string[], cwd: string = ROOT): Promise<CliResult> {
  if (args[0] === "run") await loadRunCode();
  const ports = fixedPortsOfCall(args, cwd);
  const release = ports.length > 0 ? await lockPorts(ports) : null;
  try {
    const { code, stdout, stderr } = await runInProcess(args, cwd);
    return { code, signal: null, stdout, stderr };
  } finally {
    await release?.();
  }
}
