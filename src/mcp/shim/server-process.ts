import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";

/** The real MCP server, started by the shim as the leader of its own process group. */
export interface ServerProcess {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Its exit code, or minus the number of the signal that ended it. */
  readonly exited: Promise<number | null>;
}

/**
 * Spawns the server without a shell; its stderr is the shim's own. Resolves with the process,
 * or with the system's error code (ENOENT, EACCES, …) when it cannot start.
 */
export function spawnServer(
  command: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ServerProcess | string> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.resolve("EINVAL");
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, args, { cwd, env, stdio: ["pipe", "pipe", "inherit"], detached: true });
    } catch (error) {
      resolve((error as NodeJS.ErrnoException).code ?? "EINVAL");
      return;
    }
    const exited = new Promise<number | null>((done) => {
      child.once("exit", (code, signal) => {
        done(code ?? (signal === null ? null : -(constants.signals[signal] ?? 0)));
      });
    });
    child.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "EINVAL"));
    child.once("spawn", () => {
      child.on("error", () => {});
      child.stdin?.on("error", () => {});
      resolve({
        pid: child.pid as number,
        stdin: child.stdin as Writable,
        stdout: child.stdout as Readable,
        exited,
      });
    });
  });
}
