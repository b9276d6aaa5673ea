/**
 * What a schema-2 run says when a process cannot be spawned: the program and the folder, so
 * `spawn ENOENT` tells whether the command or the folder is missing. Only the program (argv[0])
 * is named, never its arguments or environment.
 */
import { stat } from "node:fs/promises";
import type { RunErrorReason } from "../events/types.js";
import { ManagedProcess, type ManagedProcessOptions, SpawnError } from "./child-process.js";
import { SetupFailure, type StepContext } from "./step-context.js";

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `command "nodee" was not found (spawn ENOENT) in folder /work/agent`, or
 * `folder /work/agnet does not exist (spawn ENOENT) for command "node"`.
 */
async function spawnFailureDetail(
  spec: { readonly command: readonly string[]; readonly cwd: string },
  errno: string,
): Promise<string> {
  const program = JSON.stringify(spec.command[0] ?? "");
  if (!(await isFolder(spec.cwd))) {
    return `folder ${spec.cwd} does not exist (spawn ${errno}) for command ${program}`;
  }
  if (errno === "ENOENT") {
    return `command ${program} was not found (spawn ENOENT) in folder ${spec.cwd}; is it installed and on PATH?`;
  }
  return `command ${program} could not be run (spawn ${errno}) in folder ${spec.cwd}`;
}

/** How a run names a process it could not spawn: the RUN_ERROR reason and its message. */
export interface SpawnFailureWords {
  readonly reason: RunErrorReason;
  /** `detail`: see spawnFailureDetail. */
  message(errno: string, detail: string): string;
  /** The log file's name as an I/O failure names it (default: as it is). */
  logLabel?(file: string): string;
}

/**
 * Starts one of the run's processes. A log file that cannot be written stops the run; a process
 * that cannot be spawned is a SetupFailure worded by `words`.
 */
export async function startRunProcess(
  context: StepContext,
  options: Omit<ManagedProcessOptions, "onOutputError">,
  words: SpawnFailureWords,
): Promise<ManagedProcess> {
  try {
    return await ManagedProcess.start({
      ...options,
      onOutputError: (file, code) => context.abortRun?.ioFailure(words.logLabel?.(file) ?? file, code),
    });
  } catch (error) {
    if (!(error instanceof SpawnError)) throw error;
    const detail = await spawnFailureDetail(options.spec, error.errno);
    throw new SetupFailure(words.reason, words.message(error.errno, detail));
  }
}
