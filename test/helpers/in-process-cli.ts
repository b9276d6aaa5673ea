import type { CliResult } from "./cli.js";
import { ROOT } from "./cli.js";
import { runInProcess } from "./in-process.js";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";

/**
 * Runs a CLI command in this process, as `runBuiltCli` would run it in a process of its own, and
 * answers in the same shape: for tests about what a command writes and prints rather than about
 * the executable, it spares each call a Node start and the loading of the whole CLI. A `run` of a
 * scenario with fixed ports holds those ports' locks first, as `runBuiltCli` does.
 */
export async function runCliHere(args: readonly string[], cwd: string = ROOT): Promise<CliResult> {
  const ports = fixedPortsOfCall(args, cwd);
  const release = ports.length > 0 ? await lockPorts(ports) : null;
  try {
    const { code, stdout, stderr } = await runInProcess(args, cwd);
    return { code, signal: null, stdout, stderr };
  } finally {
    await release?.();
  }
}
