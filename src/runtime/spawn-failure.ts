/**
 * What a schema-2 run says when a process cannot be spawned: the program and the folder, so
 * `spawn ENOENT` tells whether the command or the folder is missing. Only the program (argv[0])
 * is named, never its arguments or environment.
 */
import { stat } from "node:fs/promises";

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
export async function spawnFailureDetail(
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
